// STOPGAP, to be deleted when docs/assets/javascripts/transformer.js is itself type-checked
// (tsconfig.json excludes it while it is annotated elsewhere; drop this file from "include"
// together with that exclusion). It declares only what the widgets reversal.js and
// translator.js call of the global `Transformer` that transformer.js defines, so that they are
// checked against something meanwhile. (The DOM library's `Transformer` is an unrelated
// interface of the Streams API; a `var` of the same name lives beside it.)

interface TransformerStubMatrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

interface TransformerStubTokens {
  names: string[];
  pad_id: number;
  bos_id: number;
  eos_id: number;
  [key: string]: unknown;
}

interface TransformerStubModel {
  cfg: { n_layers: number; n_heads: number; [key: string]: unknown };
  params: object;
  tokens: TransformerStubTokens;
  manifest: any; // the JSON the build writes next to the weights, plus what a widget adds
}

interface TransformerStubRun {
  tokens: number[];
  /** per written token: its id, and cross-attention [layer][head] over the source */
  steps: { token: number; cross: Float32Array[][] }[];
  /** [layer][head]: the encoder's self-attention weights */
  encoderWeights: TransformerStubMatrix[][];
}

declare var Transformer: {
  matrix(rows: number, cols: number, data?: Float32Array): TransformerStubMatrix;
  fromTensors(cfg: object, tokens: object, tensors: Record<string, TransformerStubMatrix>,
              tied: Record<string, string> | null | undefined, manifest: object): TransformerStubModel;
  loadModel(manifestUrl: string): Promise<TransformerStubModel>;
  greedyDecode(model: TransformerStubModel, src: number[], maxNewTokens: number): TransformerStubRun;
};
