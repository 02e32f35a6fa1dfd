import type { Plugin } from "vite";

/**
 * React's streaming server renderer for the edge (react-dom/server.edge) turns every piece of
 * markup into bytes as it goes: one `TextEncoder.encode` per tag, attribute and text, several
 * hundred a page, each a call from JavaScript into the Workers runtime, each a small
 * Uint8Array for the garbage collector. On workerd that was the renderer's heaviest line
 * (issue 24: `stringToChunk` ~8 % of a signed-in page's JavaScript). This keeps the pieces as
 * strings and encodes once per flush: the same bytes, streamed at the same points.
 *
 * Exact replacements of the production build's functions; the build fails if one is not
 * found, so a React upgrade is looked at, not guessed.
 */
const replacements: [what: string, from: string, to: string][] = [
  [
    "writeChunk",
    /function writeChunk\(destination, chunk\) \{\n {2}if \(0 === chunk\.byteLength\) \{[\s\S]*?\n {2}\}\n\}\nfunction writeChunkAndReturn/
      .source,
    `function writeChunk(destination, chunk) {
  pendingText += chunk;
}
function writeChunkAndReturn`,
  ],
  [
    "completeWriting",
    /function completeWriting\(destination\) \{\n {2}currentView &&[\s\S]*?\(writtenBytes = 0\)\);\n\}/.source,
    `var pendingText = "";
function completeWriting(destination) {
  0 < pendingText.length &&
    (destination.enqueue(textEncoder.encode(pendingText)), (pendingText = ""));
}`,
  ],
  [
    "stringToChunk",
    /function stringToChunk\(content\) \{\n {2}return textEncoder\.encode\(content\);\n\}/.source,
    "function stringToChunk(content) {\n  return content;\n}",
  ],
  [
    "stringToPrecomputedChunk",
    /function stringToPrecomputedChunk\(content\) \{\n {2}return textEncoder\.encode\(content\);\n\}/.source,
    "function stringToPrecomputedChunk(content) {\n  return content;\n}",
  ],
  // Only the progressive-flush heuristics count these; a string's length stands in for its bytes.
  [
    "byteLengthOfChunk",
    /function byteLengthOfChunk\(chunk\) \{\n {2}return chunk\.byteLength;\n\}/.source,
    "function byteLengthOfChunk(chunk) {\n  return chunk.length;\n}",
  ],
  ["segment byte size", /segmentByteSize \+= segment\[i\]\.byteLength;/.source, "segmentByteSize += segment[i].length;"],
];

export function reactStringChunks(): Plugin {
  return {
    name: "react-string-chunks",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]react-dom[\\/]cjs[\\/]react-dom-server\.edge\.production\.js$/.test(id.split("?")[0] ?? "")) return;
      let patched = code;
      for (const [what, from, to] of replacements) {
        const pattern = new RegExp(from);
        if (!pattern.test(patched))
          this.error(`react-dom/server.edge: ${what} was not found: check tooling/react-string-chunks.ts`);
        patched = patched.replace(pattern, () => to);
      }
      return { code: patched, map: null };
    },
  };
}
