// The Node.js majors CI tests on, first the one the image ships (the Dockerfile's NODE_VERSION: the whole suite runs
// on it), then the other LTS majors package.json's engines allows (the node tests run on those too), newest first.
import { readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const image = Number(/^ARG NODE_VERSION=(\d+)$/m.exec(readFileSync(new URL('Dockerfile', root), 'utf8'))?.[1]);
const engines = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).engines.node;
const lowest = Number(/^>=\s*(\d+)/.exec(engines)?.[1]);
if (!image || !lowest) throw new Error(`Cannot read the image's Node.js major (Dockerfile ARG NODE_VERSION) or engines (${engines}).`);

/** LTS majors are even: 20, 22, 24 … */
const majors = [image];
for (let major = image - 2; major >= lowest; major -= 2) majors.push(major);
console.log(majors.join(' '));
