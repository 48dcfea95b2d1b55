export declare class DecodeError extends Error {
    constructor(message: string);
}
