package dev.servebench.gguf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed GGUF header.
 *
 * @param version     GGUF version
 * @param metadata    key-value pairs in file order
 * @param tensors     tensor infos in file order (empty when only the metadata was read)
 * @param offsets     each tensor's offset relative to {@code dataStart}
 * @param dataStart   absolute file offset of the data section (-1 when only the metadata was read)
 */
public record GgufFile(int version, Map<String, GgufValue> metadata, List<TensorInfo> tensors, long[] offsets,
                       long dataStart) {
    public GgufFile {
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        tensors = List.copyOf(tensors);
        offsets = offsets.clone();
        if (offsets.length != tensors.size()) {
            throw new IllegalArgumentException("offsets (" + offsets.length + ") must match tensors (" + tensors.size() + ")");
        }
    }

    @Override
    public long[] offsets() {
        return offsets.clone();
    }

    public Optional<String> string(String key) {
        return metadata.get(key) instanceof GgufValue.Str(String value) ? Optional.of(value) : Optional.empty();
    }

    public Optional<Long> u32(String key) {
        return metadata.get(key) instanceof GgufValue.U32(long value) ? Optional.of(value) : Optional.empty();
    }

    /** {@code tokenizer.ggml.tokens}, or empty when the file has none. */
    public List<String> tokens() {
        return metadata.get("tokenizer.ggml.tokens") instanceof GgufValue.StrArray(List<String> values) ? values : List.of();
    }
}
