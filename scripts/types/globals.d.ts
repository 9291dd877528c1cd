// Globals that scripts other than the site's own define, for the type check of
// docs/assets/javascripts/ (tsconfig.json at the repository root). Only what the site's
// scripts use is declared. Kept outside docs/ so MkDocs never copies it into the site.

// ---- Material for MkDocs (9.8): `document$`, an RxJS observable that emits the document on
// every page view (again after an instant navigation) and replays the last one to a new
// subscriber. Pages built without Material's bundle do not have it: code checks for it.

interface MaterialSubscription {
  unsubscribe(): void;
}

interface MaterialDocumentObservable {
  subscribe(next: (document: Document) => void): MaterialSubscription;
}

declare var document$: MaterialDocumentObservable | undefined;

// ---- KaTeX's auto-render extension (assets/vendor/katex/auto-render.min.js, loaded before
// the site's scripts by mkdocs.yml's extra_javascript): renders the TeX between the given
// delimiters inside an element.

interface KatexDelimiter {
  left: string;
  right: string;
  display: boolean;
}

interface KatexAutoRenderOptions {
  delimiters?: KatexDelimiter[];
  throwOnError?: boolean;
  ignoredTags?: string[];
  ignoredClasses?: string[];
  errorCallback?: (message: string, error: Error) => void;
}

declare var renderMathInElement: ((element: HTMLElement, options?: KatexAutoRenderOptions) => void) | undefined;

// ---- a helper for the site's own scripts

// An object type with exactly T's members. In a .js file the type of an object literal is open
// (any property may be read or added without an error), so the objects a script publishes as a
// global (CourseMath in maths.js, CourseWidgets in widgets/common.js) are cast to Closed<...>:
// a misspelt member of theirs is then an error wherever it is used.
type Closed<T> = { [K in keyof T]: T[K] };
