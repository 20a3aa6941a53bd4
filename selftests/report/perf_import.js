// Reads a `perf script` text with speedscope's own Linux perf importer (the
// npm package's release bundle, unchanged, run in a node VM) and prints
// what it imported:
//   S <count> <frame;frame;...>   each stack, root first, by sample count
//   A <address> <name> (<file>)    each distinct frame line it parsed
// A name speedscope shows as "??? (file)" (perf's [unknown]) is printed as
// the collapsed format names it: [basename of file], or [unknown].
//
// usage: node perf_import.js SPEEDSCOPE_BUNDLE.js SCRIPT.txt
'use strict';
const fs = require('fs');
const vm = require('vm');

const [bundlePath, scriptPath] = process.argv.slice(2);
let src = fs.readFileSync(bundlePath, 'utf8');

// The importer's three parts, found by their code: the generator of events
// (it splits the text's lines), the importer (a Map of profiles by thread,
// fed by that generator), and the profile builder class it creates.
const gen = /function\*(\w+)\((\w+)\)\{let \w+=\[\];for\(let \w+ of \2\.splitLines\(\)\)/.exec(src);
if (!gen) throw new Error('no perf event parser in ' + bundlePath);
const imp = new RegExp('function (\\w+)\\((\\w+)\\)\\{let \\w+=new Map,\\w+=null;for\\(let \\w+ of ' +
	gen[1] + '\\(\\2\\)\\)').exec(src);
if (!imp) throw new Error('no perf importer in ' + bundlePath);
const rest = src.slice(imp.index);
const builder = /=>\{let (\w+)=new (\w+);return \1\.setName/.exec(rest);
const init = /var (\w+)=\w+\(\(\)=>\{"use strict";[\w();]*\}\);/.exec(rest);
if (!builder || !init) throw new Error('importer parts not found in ' + bundlePath);
// Expose them right after the importer's module initializer is defined.
const at = imp.index + init.index + init[0].length;
src = src.slice(0, at) +
	`globalThis.__perfImport=()=>{${init[1]}();return {imp:${imp[1]},gen:${gen[1]},B:${builder[2]}}};` +
	src.slice(at);

// The page around it is not needed: any DOM access gets an inert object.
const inert = new Proxy(function () {}, {
	get: (t, k) => (k === Symbol.toPrimitive ? () => '' : inert),
	apply: () => inert,
	construct: () => inert,
});
const ctx = {
	console: { log() {}, error() {}, warn() {}, info() {} },
	window: inert, document: inert, navigator: inert, location: inert,
	localStorage: inert, setTimeout, clearTimeout, TextDecoder, TextEncoder,
	URL, Uint8Array,
};
ctx.globalThis = ctx;
ctx.self = ctx;
vm.createContext(ctx);
try {
	vm.runInContext(src, ctx);
} catch (e) {
	// the app's start-up needs a real page; the importer is defined by then
}
if (typeof ctx.__perfImport !== 'function') throw new Error('importer not reached');
const api = ctx.__perfImport();

const text = fs.readFileSync(scriptPath, 'utf8');
const file = { splitLines: () => text.split('\n') };

const shown = (f) => {
	if (!f.name.startsWith('??? (')) return f.name;
	return f.file === '[unknown]' ? '[unknown]' : '[' + f.file.replace(/.*\//, '') + ']';
};
const stacks = new Map();
const orig = api.B.prototype.appendSampleWithTimestamp;
api.B.prototype.appendSampleWithTimestamp = function (stack, t) {
	const key = stack.map(shown).join(';');
	stacks.set(key, (stacks.get(key) || 0) + 1);
	return orig.call(this, stack, t);
};
const group = api.imp(file);
if (!group || !group.profiles.length) throw new Error('speedscope imported no profile');
for (const [k, n] of stacks) console.log(`S ${n} ${k}`);

const lines = new Set();
for (const ev of api.gen(file)) {
	if (!ev) continue;
	for (const f of ev.stack) lines.add(`A ${f.address} ${f.symbolName} (${f.file})`);
}
for (const l of lines) console.log(l);
