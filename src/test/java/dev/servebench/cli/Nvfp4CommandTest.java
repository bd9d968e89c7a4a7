package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code servebench nvfp4 decode|encode} through the real command line. */
class Nvfp4CommandTest {

    @Test
    void decodePrintsOneShortestRoundTripValuePerLine() {
        // Bytes 0x71 0x08 ...: elements 0.5, 6, -0, 0, then zeros; scale 0x40 = 2.0; global 0.25.
        CliRun result = servebench("nvfp4", "decode", "--packed", "7108000000000000", "--scales", "40",
                "--global-scale", "0.25");
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.lines()).hasSize(16);
        assertThat(result.lines().subList(0, 5)).containsExactly("0.25", "3.0", "-0.0", "0.0", "0.0");
    }

    @Test
    void decodeReadsSwizzledScalesFromThePaddedBufferAndNanScalesGiveNan() {
        // 2 rows x 16: row 1's scale sits at byte 16 of the 512-byte 128x4 atom.
        String scales = "7f" + "00".repeat(15) + "38" + "00".repeat(495);
        CliRun result = servebench("nvfp4", "decode", "--packed", "22".repeat(16), "--scales", scales,
                "--global-scale", "1", "--layout", "swizzled", "--rows", "2");
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.lines()).hasSize(32);
        assertThat(result.lines().subList(0, 16)).containsOnly("NaN");
        assertThat(result.lines().subList(16, 32)).containsOnly("1.0");
    }

    @Test
    void encodePrintsPackedAndScalesHexAndDecodeRoundTripsIt() {
        String values = "6,0.5,-1,-0.1,3,0,4,-6,1.5,2,-3,0.25,0.75,1.75,-2.5,5";
        CliRun encoded = servebench("nvfp4", "encode", "--values", values, "--global-scale", "1");
        assertThat(encoded.exit()).as(encoded.err()).isZero();
        // amax 6 / (6 * 1) = scale 1.0 (0x38); ties to even: 0.25 -> 0, 0.75 -> 1, 1.75 -> 2, -2.5 -> -2, 5 -> 4
        assertThat(encoded.lines()).containsExactly("packed 178a05f6430d426c", "scales 38");

        CliRun decoded = servebench("nvfp4", "decode", "--packed", "178a05f6430d426c", "--scales", "38",
                "--global-scale", "1");
        assertThat(decoded.lines()).containsExactly("6.0", "0.5", "-1.0", "-0.0", "3.0", "0.0", "4.0", "-6.0", "1.5",
                "2.0", "-3.0", "0.0", "1.0", "2.0", "-2.0", "4.0");
    }

    @Test
    void encodeSupportsRowsSwizzledLayoutAndTheModelOptZeroBlock() {
        String row = String.join(",", Collections.nCopies(16, "0.001"));
        CliRun gpu = servebench("nvfp4", "encode", "--values", row + "," + row.replace("0.001", "12"),
                "--global-scale", "1", "--rows", "2", "--layout", "swizzled");
        assertThat(gpu.exit()).as(gpu.err()).isZero();
        // Row 0 is a zero block (scale 0x00); row 1: scale 2.0 (0x40), every code 6 -> 0x77; scale at byte 16.
        assertThat(gpu.lines()).containsExactly("packed " + "00".repeat(8) + "77".repeat(8),
                "scales 00" + "00".repeat(15) + "40" + "00".repeat(495));

        CliRun modelOpt = servebench("nvfp4", "encode", "--values", row, "--global-scale", "1", "--zero-block",
                "modelopt-one");
        assertThat(modelOpt.lines()).containsExactly("packed " + "00".repeat(8), "scales 38");
    }

    @Test
    void badInputIsOneLineOnStderrWithExitCodeTwo() {
        assertBadInput(new String[] {"encode", "--values", "1,2,3", "--global-scale", "1"},
                "--values has 3 values; expected a multiple of 16 per row (--rows 1)");
        assertBadInput(new String[] {"encode", "--values", "1,x", "--global-scale", "1"},
                "--values item 2 'x' is not a number");
        assertBadInput(new String[] {"encode", "--values", "1", "--global-scale", "1", "--rows", "2"},
                "--values has 1 values; expected a multiple of 16 per row (--rows 2)");
        assertBadInput(new String[] {"encode", "--values", String.join(",", Collections.nCopies(16, "1")),
                "--global-scale", "-1"}, "global scale = -1.0; expected a positive, finite, normal float");
        assertBadInput(new String[] {"decode", "--packed", "abc", "--scales", "38", "--global-scale", "1"},
                "--packed 'abc' is not hex bytes");
        assertBadInput(new String[] {"decode", "--packed", "0000", "--scales", "38", "--global-scale", "1"},
                "K = 4 is not a positive multiple of 16");
        assertBadInput(new String[] {"decode", "--packed", "00".repeat(8), "--scales", "3838", "--global-scale", "1"},
                "--scales has 2 bytes; expected 1 for 1 x K=16 in layout linear");
        assertBadInput(new String[] {"decode", "--packed", "00".repeat(8), "--scales", "38", "--global-scale", "1",
                "--layout", "tiled"}, "--layout must be 'linear' or 'swizzled', got 'tiled'");
        assertBadInput(new String[] {"decode", "--packed", "00".repeat(8), "--scales", "38", "--global-scale", "one"},
                "--global-scale 'one' is not a number");
        assertBadInput(new String[] {"decode", "--packed", "00".repeat(8), "--scales", "38", "--global-scale", "1",
                "--rows", "3"}, "--packed has 8 bytes = 16 elements, not divisible by --rows 3");
        assertBadInput(new String[] {"decode", "--packed", "00".repeat(8), "--scales", "38", "--global-scale", "1",
                "--rows", "0"}, "--rows must be a whole number >= 1, got '0'");
    }

    private static void assertBadInput(String[] args, String message) {
        String[] full = new String[args.length + 1];
        full[0] = "nvfp4";
        System.arraycopy(args, 0, full, 1, args.length);
        CliRun result = servebench(full);
        assertThat(result.exit()).as(String.join(" ", full)).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).as(result.err()).hasSize(1);
        assertThat(result.err()).startsWith("servebench: ").contains(message);
    }

    @Test
    void helpSaysTheGlobalScaleIsTheMultipliedDecodeFormScale() {
        CliRun help = servebench("nvfp4", "encode", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("weight_scale_2").contains("multiplied in");
    }
}
