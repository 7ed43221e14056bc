import { afterEach, describe, expect, it } from 'bun:test';
import { freePortRun, portSlice } from './free-port.ts';

const saved = process.env.QC_PORT_SLICE;
afterEach(() => {
  if (saved === undefined) delete process.env.QC_PORT_SLICE;
  else process.env.QC_PORT_SLICE = saved;
});

describe('port slices (QC_PORT_SLICE)', () => {
  it('split a range into equal parts that do not overlap, and leave it whole without a slice', () => {
    expect(portSlice(24000, 24999, undefined)).toEqual([24000, 24999]);
    expect(portSlice(24000, 24999, '0/2')).toEqual([24000, 24499]);
    expect(portSlice(24000, 24999, '1/2')).toEqual([24500, 24999]);
    expect(portSlice(21000, 21999, '2/3')).toEqual([21666, 21998]);
  });

  it('refuse a slice that names no part of the range', () => {
    for (const bad of ['2/2', '1/0', 'half', '-1/2', '1/2/3'])
      expect(() => portSlice(24000, 24999, bad)).toThrow(/k\/n/);
  });

  it('keep every run of free ports inside the slice', () => {
    process.env.QC_PORT_SLICE = '1/2';
    for (let i = 0; i < 20; i++) {
      const base = freePortRun(24000, 24999, 3);
      expect(base).toBeGreaterThanOrEqual(24500);
      expect(base + 2).toBeLessThanOrEqual(24999);
    }
    process.env.QC_PORT_SLICE = '0/2';
    for (let i = 0; i < 20; i++) expect(freePortRun(24000, 24999, 1)).toBeLessThanOrEqual(24499);
  });
});
