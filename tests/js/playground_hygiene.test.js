// The playground shows text from files (targets, names, module types, error messages): it must reach the
// page as text, never as markup. No script of the page uses an HTML sink; text goes through textContent,
// createTextNode or attribute setters (the browser suite checks the rendering itself).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';

const SINKS = /\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\.srcdoc\b|createContextualFragment|DOMParser|\beval\(|new Function\b/;

function scripts(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return scripts(full);
    return /\.(m?js|html)$/.test(e.name) ? [full] : [];
  });
}

test('no script of the playground puts text into the page as HTML', () => {
  const files = [...scripts(path.join(ROOT, 'web', 'playground')), ...scripts(path.join(ROOT, 'web', 'src'))];
  expect(files.length).toBeGreaterThan(10);
  const found = [];
  for (const f of files) {
    fs.readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      if (SINKS.test(line) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
