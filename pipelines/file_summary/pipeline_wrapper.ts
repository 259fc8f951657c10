// A file-upload pipeline: declaring `files` in the schema makes /file_summary/run take
// multipart/form-data with repeated `files` parts; the other fields are form fields.
import * as v from "valibot";
import { BasePipelineWrapper, uploadedFiles } from "svc";

const Input = v.object({
  preview_chars: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000), v.description("Characters of each file to preview.")), 80),
  files: uploadedFiles(),
});

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Summarises uploaded files: size, line count and a preview of each.";
  static inputSchema = Input;

  runApi(input: v.InferOutput<typeof Input>) {
    if (input.files.length === 0) return { files: [], note: "No files received: send them as multipart 'files' parts." };
    return {
      files: input.files.map((file) => {
        const text = file.text();
        return {
          name: file.filename,
          content_type: file.contentType,
          bytes: file.size,
          lines: text === "" ? 0 : text.split(/\r\n|\n/).length,
          preview: text.slice(0, input.preview_chars),
        };
      }),
    };
  }
}
