// Types for api-layers.js (plain JavaScript, so that eslint.config.js loads it as it is).
export declare const LAYERS: readonly string[];
export declare const ALLOWED_UPWARD: readonly { from: string; to: readonly string[] }[];
export declare function layerOf(relative: string): string | null;
export declare function runsUp(from: string, to: string): boolean;
export declare function allowedUp(from: string, to: string): boolean;
