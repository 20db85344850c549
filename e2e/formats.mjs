// The format registry as the command line lists it (`toolscope formats --json`): the list of
// formats the end-to-end tests expect, so a new format is checked without editing them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The native command line: TOOLSCOPE_BIN, a release or debug build, else a debug build made now. */
export function toolscopeBin() {
  const candidates = [process.env.TOOLSCOPE_BIN, 'target/release/toolscope', 'target/debug/toolscope'].filter(Boolean);
  const found = candidates.map((c) => path.resolve(root, c)).find((c) => fs.existsSync(c));
  if (found) return found;
  execFileSync('cargo', ['build', '--bin', 'toolscope'], { cwd: root, stdio: 'inherit' });
  return path.join(root, 'target', 'debug', 'toolscope');
}

/** Every format, in registry order: `{ id, name, protocol, streams, provider, text }`. */
export const REGISTRY = JSON.parse(execFileSync(toolscopeBin(), ['formats', '--json'], { encoding: 'utf8' }));

/** Every format id, in registry order. */
export const FORMATS = REGISTRY.map((f) => f.id);
