package dev.servebench.roofline;

/** The number format the matrix multiplications run in, which selects a hardware peak FLOP/s. */
public enum Precision {
    FP4,
    FP8,
    BF16
}
