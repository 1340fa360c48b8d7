// The code blocks of the project's documentation (README.md, docs/*.md, python/README.md,
// examples/node/README.md), each as {file, line, lang, text}, for tests/package/snippets.test.js.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';

export const DOCUMENTS = ['README.md', 'python/README.md', 'examples/node/README.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The fenced blocks of one Markdown file; `lang` is the fence's info string ('' when none). */
export function codeBlocks(file) {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const blocks = [];
  let open = null;
  lines.forEach((line, i) => {
    const fence = /^\s*```\s*([\w-]*)\s*$/.exec(line);
    if (!fence) {
      if (open) open.body.push(line);
      return;
    }
    if (open) {
      blocks.push({ file, line: open.line, lang: open.lang, text: `${open.body.join('\n')}\n` });
      open = null;
    } else {
      open = { line: i + 1, lang: fence[1], body: [] };
    }
  });
  if (open) throw new Error(`${file}:${open.line}: a code fence is never closed`);
  return blocks;
}

export function allBlocks() {
  return DOCUMENTS.flatMap(codeBlocks);
}

/** Shell lines of a block: comments and blank lines dropped, trailing `# …` comments cut. */
export function shellLines(text) {
  return text.split('\n').map((l) => l.replace(/\s+#\s.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));
}
