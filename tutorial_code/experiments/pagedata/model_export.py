"""A trained encoder–decoder as files a web page can read: weights, manifest, reference outputs.

The page's JavaScript (``docs/assets/javascripts/transformer.js``) runs the same forward pass;
these files are what it loads and what its tests compare it with.

* ``<name>.bin``: every tensor of ``model.state_dict()`` once, in state_dict order, as int8
  with one float32 scale per tensor (``w ≈ q · scale``, ``scale = max|w| / 127``): a quarter of
  the bytes of float32, so a lesson page with its model stays under 1.5 MB. A tied output
  projection (``out.weight`` is ``embed.tokens.weight``, §3.4) is stored once and named in
  ``tied``.
* ``<name>.json``: the manifest: the config, the vocabulary, and for each tensor its
  state_dict name, shape and byte offset.
* ``<name>-reference.json``: PyTorch's greedy decoding of held-out inputs and the
  cross-attention of every layer and head for each token it wrote, computed with the
  quantised weights (``q · scale`` in float32), i.e. exactly the model the page runs.

Both in-page models (reversal, translation) are written by one function,
:func:`export_and_check`, and checked by one set of gates, :data:`GATES`. This module is page
data: the experiments that train the models never import it, so a change of the file format
rewrites the files and retrains nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import torch

import tutorial_code as tc

from ..common.quantise import dequantise, quantise, round_weights  # noqa: F401  (the stored values)

FORMAT = 2
ROUND = 7  # decimals kept for reference attention weights (the page is checked to 1e-4)


def tied_names(model: torch.nn.Module) -> dict[str, str]:
    """{state_dict name: name of the earlier tensor it shares storage with}."""
    seen, tied = {}, {}
    for name, t in model.state_dict(keep_vars=True).items():
        ptr = t.data_ptr()
        if ptr in seen:
            tied[name] = seen[ptr]
        else:
            seen[ptr] = name
    return tied


def write_bytes(path: Path, data: bytes) -> None:
    """Write atomically (a temporary file, then rename)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


# the files hold the model the reference was computed with (reloaded from the files, a fresh
# model decodes every reference input identically) and fit the page's budget
GATES = {
    "export.n_reference": (200, 10**9),
    "export.weights_bytes": (1, 500_000),          # half of the 1 MB both page models share
    "export.reload.tokens_equal": (1, 1),
    "export.reload.max_attention_gap": (0, 1e-6),
}


def export_and_check(model, out_dir: Path, name: str, tokens: dict, extra: dict, sources,
                     decode: tuple[int, int, int]) -> tuple[dict, dict]:
    """Write ``<name>.bin``, ``<name>.json`` and ``<name>-reference.json`` into ``out_dir``;
    return (the results :data:`GATES` check, the reference).

    ``model`` holds the weights the page runs (already rounded with :func:`round_weights`, so
    the reference is exactly that model); ``sources``: the inputs the reference decodes, the
    lesson's example first (a (B, L) tensor or a list of id lists, see :func:`decode_each`);
    ``decode``: (BOS id, EOS id, most tokens written). The files are then reloaded into a
    fresh model, which must decode every reference input as ``model`` does.
    """
    extra = {**extra, "reference": f"{name}-reference.json"}
    manifest = export_weights(model, out_dir, name, tokens, extra)
    ref = reference(model, sources, *decode)
    ref["example_index"], ref["held_out_from"] = 0, 1  # input 0 is the lesson's example
    path = out_dir / manifest["reference"]
    write_bytes(path, json.dumps(ref, separators=(",", ":")).encode())
    reloaded = load_exported(out_dir / f"{name}.json")
    return {
        "n_reference": ref["n_inputs"] - 1,
        "weights_bytes": manifest["weights_bytes"],
        "manifest_bytes": (out_dir / f"{name}.json").stat().st_size,
        "reference_bytes": path.stat().st_size,
        "n_tensors": len(manifest["tensors"]),
        "reload": check_reference(reloaded, ref, *decode),
    }, ref


def export_weights(model, out_dir: Path, name: str, tokens: dict, extra: dict) -> dict:
    """Write ``<name>.bin`` and ``<name>.json``; return the manifest."""
    tied = tied_names(model)
    tensors, chunks, offset = [], [], 0
    for key, t in model.state_dict().items():
        if key in tied:
            continue
        q, scale = quantise(t.cpu())
        raw = q.contiguous().numpy().tobytes()
        tensors.append({"name": key, "shape": list(t.shape), "offset": offset, "bytes": len(raw),
                        "scale": scale})
        chunks.append(raw)
        offset += len(raw)
    blob = b"".join(chunks)
    cfg = model.cfg
    manifest = {
        "format": FORMAT, "name": name, "dtype": "int8", "byte_order": "little",
        "weights": f"{name}.bin", "weights_bytes": len(blob),
        "weights_sha256": hashlib.sha256(blob).hexdigest(),
        "config": {k: getattr(cfg, k) for k in ("vocab_size", "d_model", "n_heads", "d_ff", "n_layers",
                                                 "norm_first", "position", "pad_id", "tie_embeddings")},
        "d_k": cfg.d_k,
        "layer_norm_eps": model.encoder.layers[0].sublayer1.norm.eps,
        "tokens": tokens, "tensors": tensors, "tied": tied, **extra,
    }
    write_bytes(out_dir / f"{name}.bin", blob)
    write_bytes(out_dir / f"{name}.json", json.dumps(manifest, indent=1).encode())
    return manifest


def load_exported(manifest_path: Path) -> tc.EncoderDecoderTransformer:
    """A fresh float32 model with the weights of an exported manifest (and its .bin)."""
    manifest = json.loads(Path(manifest_path).read_text("utf-8"))
    blob = (Path(manifest_path).parent / manifest["weights"]).read_bytes()
    if hashlib.sha256(blob).hexdigest() != manifest["weights_sha256"]:
        raise ValueError(f"{manifest['weights']} does not match the sha256 in {manifest_path}")
    state = {}
    for t in manifest["tensors"]:
        raw = blob[t["offset"]:t["offset"] + t["bytes"]]
        q = torch.frombuffer(bytearray(raw), dtype=torch.int8).view(t["shape"])
        state[t["name"]] = dequantise(q, t["scale"])
    for name, same in manifest["tied"].items():
        state[name] = state[same]
    model = tc.EncoderDecoderTransformer(tc.TransformerConfig(**manifest["config"]))
    model.load_state_dict(state)  # strict: every name must be there, nothing extra
    return model.eval()


@torch.no_grad()
def greedy_with_attention(model, src: torch.Tensor, bos: int, eos: int, max_new: int) -> list[dict]:
    """Greedy decoding of each source row, and the cross-attention of each written token.

    Returns one dict per row: ``tokens`` (BOS, the written tokens up to and including EOS)
    and ``cross`` (N, h, steps, L_s): step t is the query that read tokens[t] and wrote
    tokens[t + 1]. The causal mask makes the teacher-forced pass over the written tokens
    give each step the weights it had during decoding.
    """
    model.eval()
    out = tc.greedy_decode(model, src, bos, max_new, eos_id=eos)     # (B, 1 + steps)
    _, att = model(src, out[:, :-1], return_attention=True)
    cross = torch.stack(att["cross"], dim=1)                         # (B, N, h, steps, L_s)
    rows = []
    for b in range(src.size(0)):
        toks = out[b].tolist()
        n = toks.index(eos) + 1 if eos in toks else len(toks)
        rows.append({"tokens": toks[:n], "cross": cross[b, :, :, :n - 1]})
    return rows


def decode_each(model, src, bos: int, eos: int, max_new: int) -> list[dict]:
    """:func:`greedy_with_attention` for a (B, L) tensor, or for a list of 1-D id lists of
    different lengths (sentences), each decoded alone, unpadded, as the page decodes it."""
    if isinstance(src, torch.Tensor):
        return greedy_with_attention(model, src, bos, eos, max_new)
    return [greedy_with_attention(model, torch.tensor([s]), bos, eos, max_new)[0] for s in src]


def reference(model, src, bos: int, eos: int, max_new: int) -> dict:
    """The reference file's content: per input, the source ids, written ids, cross-attention.

    ``src``: a (B, L) tensor (inputs of one length) or a list of id lists (see :func:`decode_each`).
    """
    rows = decode_each(model, src, bos, eos, max_new)
    return {"format": FORMAT, "n_inputs": len(rows), "round_decimals": ROUND,
            "inputs": [{"src": list(map(int, s)), "tokens": r["tokens"],
                        "cross": r["cross"].double().round(decimals=ROUND).tolist()}
                       for s, r in zip(src, rows)]}


def check_reference(model, ref: dict, bos: int, eos: int, max_new: int) -> dict:
    """How ``model`` agrees with a reference: exact token matches and the largest weight gap."""
    srcs = [row["src"] for row in ref["inputs"]]
    same_length = len({len(s) for s in srcs}) == 1
    rows = decode_each(model, torch.tensor(srcs) if same_length else srcs, bos, eos, max_new)
    same, gap = 0, 0.0
    for mine, want in zip(rows, ref["inputs"]):
        if mine["tokens"] != want["tokens"]:
            continue
        same += 1
        gap = max(gap, (mine["cross"].double() - torch.tensor(want["cross"])).abs().max().item())
    return {"tokens_equal": same / len(rows), "max_attention_gap": gap}
