/**
 * "Speed of light" for LLM decoding and prefill: pure functions and records that bound what a model shape
 * can reach on a hardware shape (memory bandwidth, compute, tensor-parallel allreduce), and express measured
 * values as fractions of those bounds. No I/O, no clock, no dependency on the rest of servebench.
 * Formulas and assumptions: docs/roofline.md.
 */
package dev.servebench.roofline;
