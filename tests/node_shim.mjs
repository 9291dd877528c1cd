// Runs the site's browser scripts in Node, as <script> tags would in a page, for the numerical
// tests (tests/node_runner.py). One request as JSON on stdin:
//   {scripts: [absolute paths, loaded in order into one global scope],
//    function: "(arg) => …"  (sync or async, the same text Playwright's page.evaluate takes),
//    arg: any JSON value, root: an absolute folder (the page's location: relative URLs and
//    fetch() of them are read from it)}
// The function's result comes back as JSON on stdout (typed arrays as plain arrays);
// console.log goes to stderr, and an exception ends the process with its stack on stderr.
// The one shim: `self` and `location` as a worker has them, and fetch() of local files.
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";

const request = JSON.parse(readFileSync(0, "utf-8"));
const root = pathToFileURL(request.root.endsWith("/") ? request.root : request.root + "/");

globalThis.self = globalThis;
globalThis.location = { href: root.href };
const networkFetch = globalThis.fetch;
globalThis.fetch = async function (url) {
  const target = new URL(String(url), root);
  if (target.protocol !== "file:") return networkFetch(url);  // never used by the tests
  try {
    return new Response(readFileSync(fileURLToPath(target)), { status: 200 });
  } catch (error) {
    return new Response(String(error), { status: 404 });
  }
};
console.log = (...args) => console.error(...args);

for (const path of request.scripts) {
  vm.runInThisContext(readFileSync(path, "utf-8"), { filename: path });
}
const fn = vm.runInThisContext(`(${request.function})`, { filename: "test-function.js" });
const result = await fn(request.arg);
const plain = (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value);
process.stdout.write(JSON.stringify(result === undefined ? null : result, plain));
