import { describe, expect, it } from 'vitest';
import { nulFields, nulPaths, pathBytes, pathText } from './path-bytes.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('file names as bytes', () => {
  it('reads valid UTF-8 as its text, and a byte-order mark as a character of the name', () => {
    expect(pathText(Buffer.from('src/café.ts', 'utf8'))).toBe('src/café.ts');
    expect(pathText(Buffer.from('\ufeffa.ts', 'utf8'))).toBe('\ufeffa.ts');
  });

  it('keeps names that differ only in invalid bytes apart, and gives every byte back', () => {
    const names = [
      'src/mod\xff.ts',
      'src/mod\xfe.ts',
      'src/mod\xef\xbf\xbd.ts',
      'src/\xc3(.ts',
      'src/\xed\xa0\x80.ts',
      'src/\xf0\x9f\x98.ts',
      'src/\xe0\x80\xaf.ts',
    ];
    const texts = names.map((name) => pathText(bytes(name)));
    expect(new Set(texts).size).toBe(names.length);
    for (const [index, text] of texts.entries()) expect(pathBytes(text).equals(bytes(names[index] as string))).toBe(true);
    expect(texts[2]).toBe('src/mod\ufffd.ts');
  });

  it('splits git -z output into decoded fields', () => {
    const output = Buffer.concat([bytes(':100644 100644 a b M'), Buffer.from([0]), bytes('src/\xff.ts'), Buffer.from([0])]);
    expect(nulFields(output)).toEqual([':100644 100644 a b M', 'src/\udcff.ts', '']);
    expect(nulPaths(output)).toHaveLength(2);
  });
});
