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

  it('reads bytes without a mark as UTF-8, invalid sequences replaced', () => {
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]))).toEqual({ kind: 'text', text: 'a\uFFFDb', encoding: 'utf-8' });
  });
});
