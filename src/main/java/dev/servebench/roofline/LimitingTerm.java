package dev.servebench.roofline;

/** Which of the three times sets the lower bound of a step. */
public enum LimitingTerm {
    /** bytes of weights and KV cache read per GPU / memory bandwidth */
    MEMORY,
    /** FLOPs per GPU / peak FLOP/s of the precision */
    COMPUTE,
    /** tensor-parallel allreduces: latency + message over bus bandwidth */
    COMMUNICATION
}
