export declare const IN_PROCESS_END_TO_END: string[];
export declare const SECOND_LINE_ONLY: string[];
