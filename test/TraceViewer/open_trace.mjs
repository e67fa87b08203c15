// Opens a Chrome trace in speedscope, served from this machine, in headless
// Chromium, and prints what a user would see: whether it imported, the
// first profile's name, and every warning or error the page logged. Exits
// non-zero when speedscope did not import the trace or complained about it.
// Usage: node open_trace.mjs TRACE.json
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const release = path.join(here, 'node_modules', 'speedscope', 'dist', 'release');
const trace = process.argv[2];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
                '.wasm': 'application/wasm', '.json': 'application/json' };
const server = http.createServer((request, response) => {
  const url = decodeURIComponent(request.url.split(/[?#]/)[0]);
  const file = url === '/trace.json' ? trace
             : path.join(release, url === '/' ? 'index.html' : path.normalize(url));
  fs.readFile(file, (error, data) => {
    if (error) { response.writeHead(404); response.end(); return; }
    response.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    response.end(data);
  });
}).listen(0, '127.0.0.1');
await new Promise(resolve => server.once('listening', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
                                        args: ['--no-sandbox'] });
const page = await browser.newPage();
const complaints = [];
let imported = false;
page.on('console', message => {
  const text = message.text();
  if (text.startsWith('Importing as Trace Event Format')) imported = true;
  // The software renderer's performance notes are about WebGL, not the trace.
  if ((message.type() === 'warning' || message.type() === 'error') && !text.includes('GL Driver Message'))
    complaints.push(`${message.type()}: ${text.slice(0, 300)}`);
});
page.on('pageerror', error => complaints.push(`page error: ${error.message}`));
await page.goto(`${origin}/#profileURL=${encodeURIComponent(origin + '/trace.json')}`);
try {
  await page.waitForFunction(() => document.title.endsWith('- speedscope') &&
                                   document.title !== 'speedscope', null, { timeout: 60000 });
} catch (error) {
  complaints.push('speedscope showed no profile within 60 s');
}
await page.waitForTimeout(1000);
const profile = (await page.innerText('body')).split('\n').find(line => line.includes('pid ')) ?? '';
await browser.close();
server.close();
console.log(`imported as a trace-event profile: ${imported}`);
console.log(`first profile: ${profile}`);
console.log(`${complaints.length} warning(s) or error(s)`);
for (const complaint of complaints) console.log(complaint);
process.exit(imported && complaints.length === 0 ? 0 : 1);
