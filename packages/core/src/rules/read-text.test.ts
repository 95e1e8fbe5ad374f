import { describe, expect, it } from 'vitest';
import { decodeText, readText } from './read-text.js';

const SOURCE = 'export const y = () => console.log("é");\n';

function utf16be(text: string): Buffer {
  const little = Buffer.from(text, 'utf16le');
  for (let at = 0; at + 1 < little.length; at += 2) [little[at], little[at + 1]] = [little[at + 1] as number, little[at] as number];
  return little;
}

function utf32(text: string, littleEndian: boolean): Buffer {
  const points = [...text].map((character) => character.codePointAt(0) as number);
  const buffer = Buffer.alloc(points.length * 4);
  points.forEach((point, at) => (littleEndian ? buffer.writeUInt32LE(point, at * 4) : buffer.writeUInt32BE(point, at * 4)));
  return buffer;
}

describe('decodeText', () => {
  it.each([
    ['utf-8', Buffer.from(SOURCE)],
    ['utf-8-bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SOURCE)])],
    ['utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SOURCE, 'utf16le')])],
    ['utf-16be', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(SOURCE)])],
    ['utf-32le', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(SOURCE, true)])],
    ['utf-32be', Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), utf32(SOURCE, false)])],
  ])('reads %s as the text a compiler reads, without the mark', (encoding, bytes) => {
    expect(decodeText(bytes)).toEqual({ kind: 'text', text: SOURCE, encoding });
    expect(readText(bytes)).toBe(SOURCE);
  });

  it('calls bytes that break the encoding their mark names undecodable', () => {
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41]))).toMatchObject({ kind: 'undecodable', encoding: 'utf-16le' });
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0xc3]))).toMatchObject({ kind: 'undecodable', encoding: 'utf-8-bom' });
    expect(decodeText(Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), Buffer.from([0, 0x11, 0, 0])]))).toMatchObject({
      kind: 'undecodable',
      encoding: 'utf-32be',
    });
  });

  it.each([
    ['a stray 0xFF', [0x61, 0xff, 0x62]],
    ['a cut-off sequence', [0x61, 0xc3]],
    ['an overlong NUL', [0xc0, 0x80]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a PNG header', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ])('calls bytes without a mark that are not UTF-8 undecodable (%s), and says what to do', (_name, bytes) => {
    expect(decodeText(Buffer.from(bytes))).toEqual({
      kind: 'undecodable',
      encoding: 'utf-8',
      reason: 'not valid UTF-8 text: a rule cannot read it; write it as UTF-8',
    });
  });

  it('still gives a rule everything that decodes from bytes that do not, invalid sequences replaced', () => {
    expect(readText(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
    expect(decodeText(Buffer.from([]))).toEqual({ kind: 'text', text: '', encoding: 'utf-8' });
  });
});
