package dev.servebench.telemetry.gpu;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The sampling query and the parser of its output lines. The field list is defined once here, so the
 * command and the parser cannot drift apart.
 */
public final class NvidiaSmiCsv {

    /** What each sampled line holds, in order (nvidia-smi {@code --query-gpu} names). */
    public static final List<String> FIELDS = List.of("index", "name", "uuid", "driver_version", "power.draw",
            "power.limit", "utilization.gpu", "utilization.memory", "memory.used", "memory.total", "temperature.gpu",
            "clocks.sm");

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final int SHOWN_LINE_CHARS = 200;

    private NvidiaSmiCsv() {}

    /** {@code nvidia-smi --query-gpu=<FIELDS> --format=csv,noheader,nounits -lms <interval>}. */
    public static List<String> samplingCommand(Path nvidiaSmi, Duration interval) {
        return List.of(nvidiaSmi.toString(), "--query-gpu=" + String.join(",", FIELDS), "--format=csv,noheader,nounits",
                "-lms", Long.toString(interval.toMillis()));
    }

    /**
     * Parses one output line. Fields are separated by commas (nvidia-smi writes ", "); should a GPU name
     * ever contain a comma, the extra fields are given back to the name, the only free-text field.
     *
     * @throws IllegalArgumentException naming the field and showing the line, when the line has too few
     *                                  fields, an index that is not an integer, or a number field that is
     *                                  neither a number nor a bracketed reason such as {@code [N/A]}
     */
    public static GpuSample parse(String line, Instant at) {
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(at, "at");
        String[] raw = line.split(",", -1);
        if (raw.length < FIELDS.size()) {
            throw problem(line, "expected " + FIELDS.size() + " comma-separated fields (" + String.join(",", FIELDS)
                    + "), got " + raw.length);
        }
        int extra = raw.length - FIELDS.size();
        String[] f = new String[FIELDS.size()];
        f[0] = raw[0].strip();
        f[1] = String.join(",", Arrays.copyOfRange(raw, 1, 2 + extra)).strip();
        for (int i = 2; i < f.length; i++) {
            f[i] = raw[i + extra].strip();
        }
        if (!f[0].matches("\\d{1,6}")) {
            throw problem(line, "index \"" + f[0] + "\" is not a GPU index");
        }
        if (f[1].isEmpty()) {
            throw problem(line, "the GPU name is empty");
        }
        return new GpuSample(at, Integer.parseInt(f[0]), f[1], text(f[2]), text(f[3]),
                number(f, 4, line), number(f, 5, line), number(f, 6, line), number(f, 7, line),
                number(f, 8, line), number(f, 9, line), number(f, 10, line), number(f, 11, line));
    }

    /** nvidia-smi prints a reason in brackets ([N/A], [Not Supported], [Unknown Error], …) for a missing value. */
    static boolean notAvailable(String value) {
        return (value.startsWith("[") && value.endsWith("]")) || value.equals("N/A");
    }

    private static String text(String value) {
        return value.isEmpty() || notAvailable(value) ? null : value;
    }

    private static Double number(String[] fields, int i, String line) {
        String value = fields[i];
        if (notAvailable(value)) {
            return null;
        }
        if (!DECIMAL.matcher(value).matches()) {
            throw problem(line, FIELDS.get(i) + " \"" + value + "\" is neither a number nor a bracketed reason"
                    + " such as [N/A]");
        }
        return Double.parseDouble(value);
    }

    private static IllegalArgumentException problem(String line, String what) {
        String shown = line.length() <= SHOWN_LINE_CHARS ? line : line.substring(0, SHOWN_LINE_CHARS) + "…";
        return new IllegalArgumentException("nvidia-smi line not understood: " + what + ": " + shown);
    }
}
