/**
 * @module A sentence-transformers model run in-process: its ONNX export through
 * `@huggingface/transformers` (onnxruntime-node), then the model's own Pooling (and Normalize)
 * modules as sentence-transformers applies them. Models are read only from disk — a directory, or
 * a model id in the Hugging Face cache — never downloaded; a missing model or file is an error at
 * warm-up that names every place looked at. Loaded models are shared by every embedder in the
 * process that names the same files.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { importOptional } from "./optional-package.js";

export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";

export interface ModelLocation {
  model: string;
  revision?: string | null;
  /** `model_kwargs.file_name`: the ONNX file inside the model folder (default `onnx/model.onnx`). */
  fileName?: string | null;
}

const POOLING_MODES = ["cls_token", "max_tokens", "mean_tokens", "mean_sqrt_len_tokens", "lasttoken"] as const;
type PoolingMode = (typeof POOLING_MODES)[number];

type Tokenizer = ((texts: string[], options: Record<string, unknown>) => Record<string, number[][]>) & { pad_token_id?: number; padding_side?: string };
type TensorClass = new (type: "int64", data: BigInt64Array, dims: number[]) => unknown;

interface LoadedModel {
  dir: string;
  tokenizer: Tokenizer;
  Tensor: TensorClass;
  model: (inputs: Record<string, unknown>) => Promise<Record<string, { data: ArrayLike<number>; dims: number[] }>>;
  pooling: PoolingMode[];
  normalize: boolean;
  maxSeqLength?: number;
  lowerCase: boolean;
}

/** Where the Hugging Face cache keeps models (HF_HUB_CACHE, HF_HOME/hub, ~/.cache/huggingface/hub). */
function hubCaches(): string[] {
  const dirs = [process.env.HF_HUB_CACHE, process.env.HF_HOME && join(process.env.HF_HOME, "hub"), join(homedir(), ".cache", "huggingface", "hub")];
  return [...new Set(dirs.filter((d): d is string => !!d))];
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** The model's folder, or an error naming every place looked at. */
export function locateModel(loc: ModelLocation): string {
  const looked: string[] = [];
  const asPath = resolve(loc.model);
  looked.push(asPath);
  if (isDir(asPath)) return asPath;
  if (!isAbsolute(loc.model) && /^[\w.-]+(\/[\w.-]+)?$/.test(loc.model)) {
    for (const cache of hubCaches()) {
      const repo = join(cache, `models--${loc.model.replace("/", "--")}`);
      const ref = loc.revision ?? "main";
      const refFile = join(repo, "refs", ref);
      const snapshot = existsSync(refFile) ? readFileSync(refFile, "utf8").trim() : ref;
      const dir = join(repo, "snapshots", snapshot);
      looked.push(dir);
      if (isDir(dir)) return dir;
    }
  }
  throw new Error(`Model '${loc.model}' was not found on disk (models are never downloaded). Looked in: ${looked.join(", ")}. Put the model's folder (config.json, tokenizer.json, onnx/model.onnx) there, or pass its path as 'model'.`);
}

const readJson = (file: string): any => JSON.parse(readFileSync(file, "utf8"));

/** The Pooling/Normalize modules of modules.json (mean pooling when there is none, as sentence-transformers does). */
function readModules(dir: string): { pooling: PoolingMode[]; normalize: boolean; maxSeqLength?: number; lowerCase: boolean } {
  let pooling: PoolingMode[] = ["mean_tokens"];
  let normalize = false;
  const modulesFile = join(dir, "modules.json");
  if (existsSync(modulesFile)) {
    for (const module of readJson(modulesFile) as { type: string; path: string }[]) {
      const kind = module.type.split(".").pop();
      if (kind === "Transformer") continue;
      if (kind === "Normalize") normalize = true;
      else if (kind === "Pooling") {
        const config = readJson(join(dir, module.path, "config.json")) as Record<string, unknown>;
        if (config.pooling_mode_weightedmean_tokens) throw new Error(`${dir}: weighted-mean pooling is not supported.`);
        pooling = POOLING_MODES.filter((mode) => config[`pooling_mode_${mode}`] === true);
        if (pooling.length === 0) throw new Error(`${join(dir, module.path, "config.json")} enables no pooling mode.`);
      } else throw new Error(`${dir}: the sentence-transformers module ${module.type} is not supported (supported: Transformer, Pooling, Normalize).`);
    }
  }
  const sbertFile = join(dir, "sentence_bert_config.json");
  const sbert = existsSync(sbertFile) ? (readJson(sbertFile) as { max_seq_length?: number; do_lower_case?: boolean }) : {};
  return { pooling, normalize, maxSeqLength: sbert.max_seq_length, lowerCase: sbert.do_lower_case === true };
}

async function importTransformers(who: string): Promise<typeof import("@huggingface/transformers")> {
  const lib = await importOptional<typeof import("@huggingface/transformers")>(TRANSFORMERS_PACKAGE, who);
  // Never reach a hub: files come from the folder found above, by absolute path.
  lib.env.allowRemoteModels = false;
  lib.env.allowLocalModels = true;
  lib.env.localModelPath = "/";
  return lib;
}

const loaded = new Map<string, Promise<LoadedModel>>();

export function loadModel(loc: ModelLocation, who: string): Promise<LoadedModel> {
  const dir = locateModel(loc);
  const fileName = loc.fileName ?? "onnx/model.onnx";
  const key = `${dir}\0${fileName}`;
  let promise = loaded.get(key);
  if (!promise) {
    promise = load(dir, fileName, who);
    loaded.set(key, promise);
    promise.catch(() => loaded.delete(key)); // a failed load may be retried
  }
  return promise;
}

async function load(dir: string, fileName: string, who: string): Promise<LoadedModel> {
  const missing = ["config.json", "tokenizer.json", "tokenizer_config.json", fileName].filter((f) => !existsSync(join(dir, f)));
  if (missing.length) throw new Error(`The model folder ${dir} lacks ${missing.join(", ")} (an ONNX export of the model is needed, e.g. the onnx/ folder sentence-transformers models ship).`);
  const modules = readModules(dir);
  const lib = await importTransformers(who);
  const tokenizer = await lib.AutoTokenizer.from_pretrained(dir, { local_files_only: true });
  const model = await lib.AutoModel.from_pretrained(dir, {
    local_files_only: true,
    dtype: "fp32",
    subfolder: dirname(fileName) === "." ? "" : dirname(fileName),
    model_file_name: fileName.split("/").pop()!.replace(/\.onnx$/, ""),
  });
  return { dir, tokenizer: tokenizer as unknown as Tokenizer, Tensor: lib.Tensor as unknown as TensorClass, model: model as unknown as LoadedModel["model"], ...modules };
}

export interface EncodeOptions {
  batchSize: number;
  normalize: boolean;
  truncateDim?: number | null;
  maxSeqLength?: number | null;
}

/** sentence-transformers' `encode`: tokenize, run, pool, truncate, normalize; float32 values. */
export async function encode(m: LoadedModel, texts: string[], o: EncodeOptions): Promise<number[][]> {
  const out: number[][] = [];
  const maxLength = o.maxSeqLength ?? m.maxSeqLength;
  for (let start = 0; start < texts.length; start += o.batchSize) {
    const batch = texts.slice(start, start + o.batchSize).map((t) => (m.lowerCase ? t.toLowerCase() : t));
    const inputs = tokenize(m, batch, maxLength);
    const result = await m.model(inputs);
    const hidden = result.last_hidden_state ?? result.token_embeddings;
    if (!hidden) throw new Error(`The ONNX model in ${m.dir} has no last_hidden_state or token_embeddings output (it has ${Object.keys(result).join(", ")}).`);
    const mask = inputs.attention_mask as { data: ArrayLike<bigint> };
    const [rows, tokens, width] = hidden.dims as [number, number, number];
    for (let r = 0; r < rows; r++) {
      let vector = m.pooling.flatMap((mode) => pool(mode, hidden.data, mask.data, r, tokens, width));
      if (o.truncateDim) vector = vector.slice(0, o.truncateDim);
      if (o.normalize || m.normalize) {
        const norm = Math.max(Math.sqrt(vector.reduce((s, x) => s + x * x, 0)), 1e-12);
        vector = vector.map((x) => x / norm);
      }
      out.push(vector.map(Math.fround));
    }
  }
  return out;
}

/**
 * Tokenizes a batch as Hugging Face tokenizers do with `truncation=True`: a text longer than
 * `maxLength` loses tokens from the end of its content, never its special tokens ([CLS] … [SEP]);
 * then every row is padded to the longest. (`@huggingface/transformers` cuts after the special
 * tokens are added, which would drop the final [SEP].)
 */
function tokenize(m: LoadedModel, texts: string[], maxLength: number | null | undefined): Record<string, unknown> {
  const full = m.tokenizer(texts, { return_tensor: false, padding: false, truncation: false });
  const rows = full.input_ids!.map((ids, i) => ({ ids, types: full.token_type_ids?.[i] }));
  if (maxLength && rows.some((r) => r.ids.length > maxLength)) {
    const plain = m.tokenizer(texts, { return_tensor: false, padding: false, truncation: false, add_special_tokens: false }).input_ids!;
    rows.forEach((row, i) => {
      if (row.ids.length <= maxLength) return;
      const content = plain[i]!;
      const specials = row.ids.length - content.length;
      let start = 0; // where the content starts after the leading special tokens
      while (start + content.length <= row.ids.length && content.some((id, j) => row.ids[start + j] !== id)) start++;
      const keep = Math.max(0, maxLength - specials);
      const cut = <T>(xs: T[]) => [...xs.slice(0, start + keep), ...xs.slice(start + content.length)];
      row.ids = cut(row.ids);
      if (row.types) row.types = cut(row.types);
    });
  }
  const width = Math.max(...rows.map((r) => r.ids.length));
  const left = m.tokenizer.padding_side === "left";
  const tensor = (values: (r: (typeof rows)[number]) => number[], pad: number) => {
    const data = new BigInt64Array(rows.length * width).fill(BigInt(pad));
    rows.forEach((r, i) => values(r).forEach((x, j) => (data[i * width + (left ? width - r.ids.length : 0) + j] = BigInt(x))));
    return new m.Tensor("int64", data, [rows.length, width]);
  };
  return {
    input_ids: tensor((r) => r.ids, m.tokenizer.pad_token_id ?? 0),
    attention_mask: tensor((r) => r.ids.map(() => 1), 0),
    ...(full.token_type_ids ? { token_type_ids: tensor((r) => r.types ?? r.ids.map(() => 0), 0) } : {}),
  };
}

/** One pooling mode of sentence-transformers' Pooling module, for row r. */
function pool(mode: PoolingMode, data: ArrayLike<number>, mask: ArrayLike<bigint>, r: number, tokens: number, width: number): number[] {
  const at = (t: number, d: number) => data[(r * tokens + t) * width + d]!;
  const on = (t: number) => Number(mask[r * tokens + t]) !== 0;
  const result = new Array<number>(width).fill(0);
  if (mode === "cls_token") return result.map((_, d) => at(0, d));
  if (mode === "lasttoken") {
    let last = 0;
    for (let t = 0; t < tokens; t++) if (on(t)) last = t;
    return result.map((_, d) => at(last, d));
  }
  if (mode === "max_tokens") {
    return result.map((_, d) => {
      let best = -Infinity;
      for (let t = 0; t < tokens; t++) best = Math.max(best, on(t) ? at(t, d) : -1e9);
      return best;
    });
  }
  let count = 0;
  for (let t = 0; t < tokens; t++) {
    if (!on(t)) continue;
    count += 1;
    for (let d = 0; d < width; d++) result[d]! += at(t, d);
  }
  const divisor = mode === "mean_tokens" ? Math.max(count, 1e-9) : Math.sqrt(Math.max(count, 1e-9));
  return result.map((x) => x / divisor);
}

