// The types of booleans.cjs, for src/ and the tests.
export declare function parseBoolean(value: string | undefined): boolean | undefined;
export declare function notABoolean(name: string, value: string): string;
