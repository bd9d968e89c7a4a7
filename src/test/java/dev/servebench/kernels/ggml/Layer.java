package dev.servebench.kernels.ggml;

import java.lang.foreign.MemorySegment;

/** The test layer (H = 256, I = 64, E = 16) and views of its expert matrices for {@link MoeReference}. */
final class Layer {

    static final int H = 256;
    static final int I = 64;
    static final int E = 16;
    static final ExpertWeights WEIGHTS = ExpertWeights.uniform(42, H, I);

    private Layer() {
    }

    static GgmlBatchShape shape(int topK, int tokens) {
        return new GgmlBatchShape(H, I, E, topK, tokens);
    }

    /** The fp32 matrices the supplier hands out. */
    static MoeReference.Matrices original() {
        return new MoeReference.Matrices() {
            @Override
            public float[] up(int expert) {
                float[] m = new float[I * H];
                WEIGHTS.up(expert, m);
                return m;
            }

            @Override
            public float[] gate(int expert) {
                float[] m = new float[I * H];
                WEIGHTS.gate(expert, m);
                return m;
            }

            @Override
            public float[] down(int expert) {
                float[] m = new float[H * I];
                WEIGHTS.down(expert, m);
                return m;
            }
        };
    }

    /** The matrices as stored in the F16 or Q4_0 tensors, decoded in Java. */
    static MoeReference.Matrices stored(GgmlExperts experts) {
        GgmlCalls library = experts.library().calls();
        MemorySegment up = library.data(experts.upTensor());
        MemorySegment gate = library.data(experts.gateTensor());
        MemorySegment down = library.data(experts.downTensor());
        long upStride = up.byteSize() / E;
        long downStride = down.byteSize() / E;
        GgmlWeightType type = experts.type();
        return new MoeReference.Matrices() {
            @Override
            public float[] up(int expert) {
                return decode(type, up, expert * upStride);
            }

            @Override
            public float[] gate(int expert) {
                return decode(type, gate, expert * upStride);
            }

            @Override
            public float[] down(int expert) {
                return decode(type, down, expert * downStride);
            }
        };
    }

    private static float[] decode(GgmlWeightType type, MemorySegment data, long offset) {
        return switch (type) {
            case F32 -> data.asSlice(offset, (long) I * H * Float.BYTES).toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT);
            case F16 -> Formats.decodeF16(data, offset, I * H);
            case Q4_0 -> Formats.decodeQ4_0(data, offset, I * H);
            case Q4_0_REPACKED -> throw new UnsupportedOperationException("repacked blocks are interleaved by 8 rows;"
                    + " decode a plain Q4_0 copy of the same weights instead");
        };
    }
}
