package dev.servebench.cli;

import dev.servebench.baseline.GateCase;
import dev.servebench.baseline.GateVerdict;
import dev.servebench.baseline.MachineDrift;
import dev.servebench.report.GateReport;
import dev.servebench.results.AtomicFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What both A/B commands ({@code compare}, {@code kernels compare}) do with their judged cases: JUnit XML and
 * Markdown written, the Markdown printed, and one exit code — a regression first, then anything not judged
 * (never a vacuous pass), else 0.
 */
final class PairedVerdictReport {

    static final int REGRESSION = GateCommand.REGRESSION;
    static final int BAD_INPUT = GateCommand.BAD_INPUT;
    static final int NOT_JUDGED = GateCommand.NOT_JUDGED;

    /**
     * @param nothingMeasured the reason when there is no case at all
     * @param unjudgedCases   what the count of unjudged cases is followed by, e.g. "kernel point(s) had fewer …"
     */
    record Wording(String title, String note, String junitSuite, String nothingMeasured, String unjudgedCases) {
    }

    private PairedVerdictReport() {
    }

    static int write(CommandSpec spec, List<? extends GateCase> cases, Wording wording, Path junit, Path markdown)
            throws IOException {
        String summary = GateReport.pairedMarkdown(wording.title(), cases, wording.note());
        AtomicFiles.write(junit, GateReport.junitXml(wording.junitSuite(), cases, MachineDrift.notChecked()));
        AtomicFiles.write(markdown, summary);
        spec.commandLine().getOut().print(summary);
        spec.commandLine().getOut().flush();
        if (cases.stream().anyMatch(c -> c.verdict().fails())) {
            return REGRESSION;
        }
        long unjudged = cases.stream().filter(c -> c.verdict() == GateVerdict.INSUFFICIENT_DATA).count();
        if (unjudged > 0 || cases.isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("servebench: not judged: " + (cases.isEmpty() ? wording.nothingMeasured()
                    : unjudged + " " + wording.unjudgedCases()));
            err.flush();
            return NOT_JUDGED;
        }
        return 0;
    }
}
