package dev.servebench.cli;

import dev.servebench.kernels.nvfp4.Nvfp4Quantizer;
import dev.servebench.kernels.nvfp4.Nvfp4Quantizer.ZeroBlock;
import dev.servebench.kernels.nvfp4.Nvfp4Reference;
import dev.servebench.kernels.nvfp4.Nvfp4Tensor;
import dev.servebench.kernels.nvfp4.ScaleLayout;
import java.io.PrintWriter;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servebench nvfp4 decode|encode}: the Java NVFP4 reference on the command line, for checking a few
 * bytes of a checkpoint by hand. Values are parsed here rather than by picocli so that every bad value is
 * one line on stderr with exit code 2.
 */
@Command(name = "nvfp4", mixinStandardHelpOptions = true,
        description = "Decode or encode NVFP4 bytes (E2M1 pairs, E4M3 block scales of 16, fp32 global scale).",
        subcommands = {Nvfp4Command.Decode.class, Nvfp4Command.Encode.class})
public final class Nvfp4Command implements Runnable {

    static final String GLOBAL_SCALE_HELP = "The checkpoint's weight_scale_2 (decode form, amax/(6*448)): values"
            + " are (E2M1 x E4M3 scale) x this, so it is multiplied in, not divided.";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getErr().println("Usage: servebench nvfp4 decode|encode; try servebench nvfp4 --help");
    }

    @Command(name = "decode", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Print one decoded fp32 value per line (Java Float.toString). K = 2 x packed bytes / rows.")
    static final class Decode implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--packed", required = true, paramLabel = "HEX",
                description = "Packed E2M1 pairs, rows*K/2 bytes; element 2i is the low nibble of byte i.")
        String packed;

        @Option(names = "--scales", required = true, paramLabel = "HEX",
                description = "E4M3 block scales in --layout (swizzled: the padded 128x4 buffer).")
        String scales;

        @Option(names = "--global-scale", required = true, paramLabel = "FLOAT", description = GLOBAL_SCALE_HELP)
        String globalScale;

        @Option(names = "--layout", defaultValue = "linear", paramLabel = "LAYOUT",
                description = "linear (row-major [rows, K/16]) or swizzled (128x4 atoms); default ${DEFAULT-VALUE}.")
        String layout;

        @Option(names = "--rows", defaultValue = "1", paramLabel = "N", description = "Rows; default ${DEFAULT-VALUE}.")
        String rows;

        @Override
        public Integer call() {
            byte[] packedBytes = hex("--packed", packed);
            byte[] scaleBytes = hex("--scales", scales);
            int rowCount = Nvfp4Options.rows(rows);
            ScaleLayout scaleLayout = Nvfp4Options.layout(layout);
            if (packedBytes.length * 2L % rowCount != 0) {
                throw new IllegalArgumentException("--packed has " + packedBytes.length + " bytes = "
                        + packedBytes.length * 2L + " elements, not divisible by --rows " + rowCount);
            }
            int k = Math.toIntExact(packedBytes.length * 2L / rowCount);
            Nvfp4Reference.requireShape(rowCount, k);
            long expected = scaleLayout.bytes(rowCount, k);
            if (scaleBytes.length != expected) {
                throw new IllegalArgumentException("--scales has " + scaleBytes.length + " bytes; expected " + expected
                        + " for " + rowCount + " x K=" + k + " in layout " + layout);
            }
            float[] values = new Nvfp4Tensor(packedBytes, scaleBytes, scaleLayout,
                    Nvfp4Options.number("--global-scale", globalScale), rowCount, k).dequantize();
            PrintWriter out = spec.commandLine().getOut();
            for (float value : values) {
                out.println(Float.toString(value));
            }
            out.flush();
            return 0;
        }

        private static byte[] hex(String option, String text) {
            if (text.isEmpty()) {
                throw new IllegalArgumentException(option + " is empty; expected hex bytes");
            }
            try {
                return HexFormat.of().parseHex(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + " '" + text + "' is not hex bytes (two hex digits per"
                        + " byte, no separators)");
            }
        }
    }

    @Command(name = "encode", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Quantise fp32 values with the exact-math reference; print 'packed HEX' and 'scales HEX'.")
    static final class Encode implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--values", required = true, paramLabel = "LIST",
                description = "Comma-separated fp32 values, row-major; a multiple of 16 per row.")
        String values;

        @Option(names = "--global-scale", required = true, paramLabel = "FLOAT", description = GLOBAL_SCALE_HELP
                + " Must be a positive normal float.")
        String globalScale;

        @Option(names = "--layout", defaultValue = "linear", paramLabel = "LAYOUT",
                description = "linear or swizzled (128x4, zero-padded); default ${DEFAULT-VALUE}.")
        String layout;

        @Option(names = "--rows", defaultValue = "1", paramLabel = "N", description = "Rows; default ${DEFAULT-VALUE}.")
        String rows;

        @Option(names = "--zero-block", defaultValue = "zero-scale", paramLabel = "MODE",
                description = "A block whose scale rounds to 0: zero-scale (SF 0x00, codes 0, as the GPU kernel) or"
                        + " modelopt-one (SF 1.0 = 0x38, as ModelOpt); default ${DEFAULT-VALUE}.")
        String zeroBlock;

        @Override
        public Integer call() {
            float[] parsed = Nvfp4Options.numbers("--values", values);
            int rowCount = Nvfp4Options.rows(rows);
            if (parsed.length % rowCount != 0 || parsed.length / rowCount % 16 != 0) {
                throw new IllegalArgumentException("--values has " + parsed.length + " values; expected a multiple of"
                        + " 16 per row (--rows " + rowCount + ")");
            }
            Nvfp4Tensor tensor = Nvfp4Quantizer.quantize(parsed, rowCount, parsed.length / rowCount,
                    Nvfp4Options.number("--global-scale", globalScale), Nvfp4Options.layout(layout),
                    Nvfp4Options.zeroBlock(zeroBlock));
            PrintWriter out = spec.commandLine().getOut();
            out.println("packed " + HexFormat.of().formatHex(tensor.packed()));
            out.println("scales " + HexFormat.of().formatHex(tensor.scales()));
            out.flush();
            return 0;
        }
    }

    /** Option values of both subcommands; each failure is an IllegalArgumentException naming the option. */
    static final class Nvfp4Options {

        private Nvfp4Options() {
        }

        static ScaleLayout layout(String text) {
            return switch (text) {
                case "linear" -> ScaleLayout.LINEAR;
                case "swizzled" -> ScaleLayout.SWIZZLED_128X4;
                default -> throw new IllegalArgumentException("--layout must be 'linear' or 'swizzled', got '" + text
                        + "'");
            };
        }

        static ZeroBlock zeroBlock(String text) {
            return switch (text) {
                case "zero-scale" -> ZeroBlock.ZERO_SCALE;
                case "modelopt-one" -> ZeroBlock.MODELOPT_ONE;
                default -> throw new IllegalArgumentException("--zero-block must be 'zero-scale' or 'modelopt-one',"
                        + " got '" + text + "'");
            };
        }

        static int rows(String text) {
            try {
                int rows = Integer.parseInt(text.strip());
                if (rows >= 1) {
                    return rows;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("--rows must be a whole number >= 1, got '" + text + "'");
        }

        static float number(String option, String text) {
            try {
                return Float.parseFloat(text.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " '" + text + "' is not a number");
            }
        }

        static float[] numbers(String option, String text) {
            String[] items = text.split(",", -1);
            float[] parsed = new float[items.length];
            for (int i = 0; i < items.length; i++) {
                try {
                    parsed[i] = Float.parseFloat(items[i].strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(option + " item " + (i + 1) + " '" + items[i].strip()
                            + "' is not a number");
                }
            }
            return parsed;
        }
    }
}
