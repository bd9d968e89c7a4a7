package dev.servebench.telemetry;

import dev.servebench.results.AtomicFiles;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;

/**
 * JSON of the telemetry result records ({@code CrossCheckResult}, {@code CounterDelta},
 * {@code ServerCounters}, {@code GpuTelemetryReport}, {@code InstalledGpu} lists): snake_case keys like the
 * summary files, instants as ISO-8601 strings, absent values as null. The records carry their own
 * annotations, so any plain {@link ObjectMapper} writes the same; this class only saves the boilerplate.
 */
public final class TelemetryJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TelemetryJson() {}

    /** Indented JSON of one result. */
    public static String toJson(Object result) {
        try {
            return MAPPER.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + result.getClass().getSimpleName() + " as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    /** Writes the JSON to a sibling temporary file, then moves it into place, so readers never see half a file. */
    public static void write(Path file, Object result) throws IOException {
        AtomicFiles.write(file, toJson(result) + "\n");
    }
}
