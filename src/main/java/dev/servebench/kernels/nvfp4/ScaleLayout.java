package dev.servebench.kernels.nvfp4;

/** Where the E4M3 scale of block (row, k16) lives (docs/kernels-nvfp4.md, Scale layouts); codes match
 * {@code sb_scale_layout}. */
public enum ScaleLayout {
    /** Row-major {@code [rows, k/16]}: the checkpoint's {@code weight_scale}. */
    LINEAR(0),
    /** CUTLASS/FlashInfer 128x4 atoms, padded to {@code [round_up(rows,128), round_up(k/16,4)]} with zeros. */
    SWIZZLED_128X4(1);

    private final int code;

    ScaleLayout(int code) {
        this.code = code;
    }

    /** The {@code sb_scale_layout} value. */
    public int code() {
        return code;
    }

    public long bytes(long rows, long k) {
        long columns = k / 16;
        return switch (this) {
            case LINEAR -> rows * columns;
            case SWIZZLED_128X4 -> roundUp(rows, 128) * roundUp(columns, 4);
        };
    }

    /** Byte offset of the scale for row {@code row}, scale column {@code column}. */
    public long offset(long row, long column, long k) {
        long columns = k / 16;
        return switch (this) {
            case LINEAR -> row * columns + column;
            case SWIZZLED_128X4 -> {
                long kTiles = roundUp(columns, 4) / 4;
                yield (row / 128) * kTiles * 512 + (column / 4) * 512 + (row % 32) * 16 + ((row % 128) / 32) * 4
                        + (column % 4);
            }
        };
    }

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }
}
