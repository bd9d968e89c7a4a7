package dev.servebench.gguf;

import java.util.Locale;

/** How the large matrices are stored; norms and the expert router always stay F32. */
public enum WeightType {
    F16(GgmlType.F16, 1),
    Q4_0(GgmlType.Q4_0, 2);

    private final GgmlType ggmlType;
    private final int fileType;

    WeightType(GgmlType ggmlType, int fileType) {
        this.ggmlType = ggmlType;
        this.fileType = fileType;
    }

    public GgmlType ggmlType() {
        return ggmlType;
    }

    /** {@code general.file_type}: llama.cpp's LLAMA_FTYPE_MOSTLY_* value. */
    public int fileType() {
        return fileType;
    }

    /** Lower-case name used in file names and on the command line, e.g. {@code q4_0}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static WeightType parse(String label) {
        for (WeightType type : values()) {
            if (type.label().equalsIgnoreCase(label.trim())) {
                return type;
            }
        }
        throw new IllegalArgumentException("weights (" + label + ") must be one of f16, q4_0");
    }
}
