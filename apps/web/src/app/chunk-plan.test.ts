import { describe, expect, it } from 'vitest';
import { barrelImports } from '../../vite-plugins';

// The build's chunk plan (vite.config.ts) follows an import of the contract's index only to the modules exporting
// the names imported: a name missed would leave a module out of the Dashboard's chunk, a name too many would pull a
// screen's schemas into it.
describe('barrelImports', () => {
  const contract = barrelImports('@kairos/contract');

  it('reads the names a module imports or re-exports, under their own names', () => {
    const code = [
      `import { DEFAULT_PREFERENCES, LANGUAGES as languages } from '@kairos/contract';`,
      `import { z } from 'zod';`,
      `export { dashboardSchema } from "@kairos/contract";`,
      `import {\n  tradeSchema,\n  orderSchema,\n} from '@kairos/contract';`,
    ].join('\n');
    expect(contract(code)).toEqual([
      'DEFAULT_PREFERENCES',
      'LANGUAGES',
      'dashboardSchema',
      'tradeSchema',
      'orderSchema',
    ]);
  });

  it('takes nothing for types only, and the whole package for a namespace or a form it does not read', () => {
    expect(contract(`import type { Trade } from '@kairos/contract';\nconst a = 1;`)).toEqual([]);
    expect(contract(`import { type Trade, tradeSchema } from '@kairos/contract';`)).toEqual(['tradeSchema']);
    expect(contract(`import * as contract from '@kairos/contract';`)).toBe('all');
    expect(contract(`export * from '@kairos/contract';`)).toBe('all');
    expect(contract(`import contract from '@kairos/contract';`)).toBe('all');
  });

  it('ignores other packages, even one whose name starts the same', () => {
    expect(
      contract(`import { a } from '@kairos/contract-extra';\nimport { b } from '@kairos/core';`),
    ).toEqual([]);
  });
});
