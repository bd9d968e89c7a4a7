package dev.servebench.gguf;

import java.util.List;
import java.util.Objects;

/**
 * A GGUF metadata value: the subset of GGUF value types this project writes, plus a marker for types
 * a reader skipped. Arrays are copied in and out, so a value never changes after construction.
 */
public sealed interface GgufValue {

    /** GGUF value type ids (gguf_type). */
    int UINT8 = 0, INT8 = 1, UINT16 = 2, INT16 = 3, UINT32 = 4, INT32 = 5, FLOAT32 = 6, BOOL = 7, STRING = 8,
            ARRAY = 9, UINT64 = 10, INT64 = 11, FLOAT64 = 12;

    /** Unsigned 32-bit; stored as a long so the full range fits. */
    record U32(long value) implements GgufValue {
        public U32 {
            if (value < 0 || value > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("u32 value (" + value + ") must be in [0, 2^32)");
            }
        }
    }

    record F32(float value) implements GgufValue {
    }

    record Bool(boolean value) implements GgufValue {
    }

    record Str(String value) implements GgufValue {
        public Str {
            Objects.requireNonNull(value, "value");
        }
    }

    record StrArray(List<String> values) implements GgufValue {
        public StrArray {
            values = List.copyOf(values);
        }
    }

    record F32Array(float[] values) implements GgufValue {
        public F32Array {
            values = values.clone();
        }

        @Override
        public float[] values() {
            return values.clone();
        }
    }

    record I32Array(int[] values) implements GgufValue {
        public I32Array {
            values = values.clone();
        }

        @Override
        public int[] values() {
            return values.clone();
        }
    }

    /** Any other scalar or array a reader met; only its type id is kept. */
    record Skipped(int type) implements GgufValue {
    }
}
