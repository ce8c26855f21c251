export declare const UNIT_BATCH_COUNT: number;
export declare function unitSpecs(): string[];
export declare function unbatchedUnitSpecs(): string[];
export declare function planUnitBatches(count?: number): string[][];
export declare function unitBatch(n: number): string[];
