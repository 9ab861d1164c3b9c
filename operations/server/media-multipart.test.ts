// POST /api/admin/media as an HTML form's upload: multipart/form-data (the fields as text parts, the image as the part
// `file`) decoded at the REST surface into the same input as the JSON body, with the same checks and answers, under the
// same body limit; and /openapi.json describing that body beside the JSON one. Sent with the platform's FormData and
// fetch against the real server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { startServiceOn, type BackendService } from '../../testing/backend-service.ts';
import { GPS_MARK, makeImage, photoWithGps, SCRIPTED_SVG } from '../../testing/test-images.ts';
import { MEDIA_BODY_MAX } from '../contract/media.ts';

const TOKEN = 'media-multipart-admin-token-0123456789';

describe('admin_upload_media as multipart/form-data', () => {
  let service: BackendService;
  before(async () => {
    service = await startServiceOn('local', { ADMIN_TOKEN: TOKEN });
  });
  after(() => service?.stop());

  const devHead = () => execFileSync('git', ['--git-dir', service.gitDir, 'rev-parse', 'refs/heads/dev']).toString().trim();

  function form(fields: Record<string, string>, files: Array<[string, Buffer, string]> = []): FormData {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    for (const [name, bytes, filename] of files) data.append(name, new Blob([new Uint8Array(bytes)]), filename);
    return data;
  }

  async function upload(body: FormData | string, headers: Record<string, string> = {}) {
    const res = await fetch(`${service.url}/api/admin/media`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, ...headers }, body });
    return { status: res.status, body: await res.json() };
  }

  it('commits the image of the part "file" with the text parts as the fields, its EXIF gone', async () => {
    const { status, body } = await upload(
      form({ path: 'content/media/form-photo.jpg', message: 'From a form', branch: 'dev' }, [['file', await photoWithGps(60, 40), 'photo.jpg']]),
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.type, 'image/jpeg');
    assert.deepEqual([body.width, body.height], [40, 60]);
    const stored = execFileSync('git', ['--git-dir', service.gitDir, 'cat-file', 'blob', `${body.commit.sha}:content/media/form-photo.jpg`]);
    assert.equal((await sharp(stored).metadata()).exif, undefined);
    assert.ok(!stored.toString('latin1').includes(GPS_MARK.camera));
    assert.equal(execFileSync('git', ['--git-dir', service.gitDir, 'log', '-1', '--format=%s', body.commit.sha]).toString().trim(), 'From a form');
  });

  it('answers each refusal as the JSON body does, and writes nothing', async () => {
    const head = devHead();
    const fields = { path: 'content/media/form-refused.png', message: 'Refused', branch: 'dev' };
    const cases: Array<[string, FormData, number, string, RegExp]> = [
      ['an SVG', form(fields, [['file', SCRIPTED_SVG, 'logo.svg']]), 415, 'unsupported_media_type', /SVG/],
      ['a JPEG named .png', form(fields, [['file', await makeImage('jpeg'), 'a.png']]), 400, 'bad_request', /JPEG image/],
      ['no file part', form(fields), 400, 'bad_request', /Send the image as the file part "file"/],
      ['the image as text', form({ ...fields, file: 'aGVsbG8=' }), 400, 'bad_request', /Part "file" must be a file/],
      [
        'two images',
        form(fields, [
          ['file', await makeImage('png'), 'a.png'],
          ['file', await makeImage('png'), 'b.png'],
        ]),
        400,
        'bad_request',
        /more than once/,
      ],
      [
        'another file part',
        form(fields, [
          ['file', await makeImage('png'), 'a.png'],
          ['extra', await makeImage('png'), 'b.png'],
        ]),
        400,
        'bad_request',
        /only "file" is/,
      ],
      ['no message', form({ path: fields.path, branch: 'dev' }, [['file', await makeImage('png'), 'a.png']]), 400, 'bad_request', /message/],
    ];
    for (const [name, body, status, code, says] of cases) {
      const answer = await upload(body);
      assert.equal(answer.status, status, `${name}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, code, name);
      assert.match(answer.body.message, says, name);
    }
    const broken = await upload('--x\r\nnot a form', { 'Content-Type': 'multipart/form-data; boundary=x' });
    assert.equal(broken.status, 400, JSON.stringify(broken.body));
    assert.match(broken.body.message, /multipart\/form-data body cannot be read/);
    const tooLarge = await upload(form(fields, [['file', Buffer.alloc(MEDIA_BODY_MAX + 1, 1), 'big.png']]));
    assert.equal(tooLarge.status, 413, JSON.stringify(tooLarge.body));
    assert.equal(devHead(), head, 'nothing was committed');
  });

  it('/openapi.json documents the multipart body beside the JSON one', async () => {
    const doc = await (await fetch(`${service.url}/openapi.json`)).json();
    const content = doc.paths['/api/admin/media'].post.requestBody.content;
    assert.ok(content['application/json'].schema.properties.contentBase64);
    const multipart = content['multipart/form-data'].schema;
    assert.deepEqual(Object.keys(multipart.properties).sort(), ['branch', 'file', 'message', 'path', 'sha']);
    assert.equal(multipart.properties.file.contentMediaType, 'application/octet-stream');
    assert.deepEqual(multipart.required.sort(), ['file', 'message', 'path']);
    assert.equal(doc.paths['/api/admin/changes'].post.requestBody.content['multipart/form-data'], undefined);
  });
});
