/**
 * `npm run build [-- OUT_DIR]`: bundles trio into one ES module, `dist/main.js` (default OUT_DIR
 * `dist`), that `node dist/main.js serve` runs without tsx, TypeScript or any dev dependency. Only
 * better-sqlite3 stays outside the bundle: it is a native addon, loaded from node_modules (a
 * production install, `npm ci --omit=dev`, next to dist/).
 *
 * Files read at run time: the server reads a few files relative to the source file that reads them
 * (`join(import.meta.dirname, 'migrations')` in db/migrate.ts, `routes/<x>/assets` for the console
 * and the explorer, data/funding/ and fixtures/ for the demo, data/impact/ the impact register is built from,
 * docs/methodology/*.md hashed into the impact register).
 * In a bundle every module shares one import.meta.dirname (dist/), so while bundling each of our own
 * modules has `import.meta.dirname` rewritten to "dist/ plus the folder that module came from", and
 * the data files are copied to the same relative places under dist/. The sources stay unchanged and
 * a new asset folder or migration needs no change here: whole directories are copied, not files.
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** Native addons (and only those) stay outside the bundle, loaded from node_modules at run time. */
export const EXTERNAL = ['better-sqlite3'];

/** Directories (relative to the repository) read at run time, copied to the same place under OUT_DIR. */
export function runtimeDirectories(root = ROOT): string[] {
  const assets = readdirSync(join(root, 'routes'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'routes', d.name, 'assets')))
    .map((d) => join('routes', d.name, 'assets'));
  return [
    join('db', 'migrations'),
    ...assets,
    join('data', 'funding'),
    join('fixtures', 'human'),
    join('fixtures', 'impact'),
    join('data', 'impact'),
    join('docs', 'methodology'),
  ];
}

export interface BuildResult {
  outDir: string;
  main: string;
  bytes: number;
  copied: string[];
  metafile: Metafile;
}

/** Rewrites import.meta.dirname in our own modules to the module's source folder under the bundle's folder. */
function sourceDirnamePlugin(root: string): Plugin {
  return {
    name: 'trio-source-dirname',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.dirname')) return { contents: text, loader: 'ts' };
        const folder = relative(root, dirname(args.path)).split(sep).join('/');
        const replacement =
          folder === '' ? 'import.meta.dirname' : `(import.meta.dirname + ${JSON.stringify('/' + folder)})`;
        return { contents: text.replaceAll('import.meta.dirname', replacement), loader: 'ts' };
      });
    },
  };
}

export async function buildBundle(outDir = join(ROOT, 'dist'), root = ROOT): Promise<BuildResult> {
  outDir = resolve(outDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    sourcemap: 'linked',
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [sourceDirnamePlugin(root)],
    // CommonJS packages inside an ES module bundle still call require() for node's built-ins.
    banner: {
      js: "import { createRequire as __trioCreateRequire } from 'node:module';\nconst require = __trioCreateRequire(import.meta.url);",
    },
  });
  const copied = runtimeDirectories(root);
  for (const dir of copied) cpSync(join(root, dir), join(outDir, dir), { recursive: true });
  // dist/ says it holds an ES module even when it is copied away from the repository's package.json.
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ type: 'module', private: true }, null, 2) + '\n');
  const main = join(outDir, 'main.js');
  return { outDir, main, bytes: readFileSync(main).length, copied, metafile: result.metafile };
}

/** Bare module names the bundle still imports at run time (node built-ins aside). */
export function runtimeImports(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imp of output.imports) {
      if (imp.external && !isBuiltin(imp.path)) names.add(imp.path);
    }
  }
  return [...names].sort();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = Date.now();
  const out = await buildBundle(process.argv[2] ? resolve(process.argv[2]) : undefined);
  const outside = runtimeImports(out.metafile);
  console.log(
    `built ${relative(process.cwd(), out.main) || out.main} (${(out.bytes / 1024).toFixed(0)} KiB) in ${Date.now() - started} ms; ` +
      `copied ${out.copied.join(', ')}; loaded from node_modules at run time: ${outside.join(', ') || 'nothing'}`,
  );
}
