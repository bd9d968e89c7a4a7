package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verdicts.json} ({@link RunVerdictsJson.Document}): outcome being pass, fail, inconclusive (a kernel line
 * whose interval straddles its limit), not_judged (a value the check reads was absent, NaN or infinite) or invalid
 * (the point was unmeasured or invalid); the one-line
 * summary the table does not need. Optional: runs made before the suite wrote it have none.
 */
final class VerdictsLoader {

    private VerdictsLoader() {
    }

    static Input<List<VerdictRow>> load(Path file, String spec) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Input.missing("no verdicts.json in " + file.getParent()
                    + " (the perf suite writes it after judging the run; older runs have none)");
        }
        RunVerdictsJson.Document document = RunVerdictsJson.Document.read(file);
        if (!document.spec().equals(spec)) {
            throw new IllegalArgumentException(file + ": verdicts of spec \"" + document.spec()
                    + "\" next to measurements of \"" + spec + "\"; expected both from one run");
        }
        List<VerdictRow> rows = new ArrayList<>();
        for (RunVerdictsJson.Entry verdict : document.verdicts()) {
            rows.add(new VerdictRow(verdict.name(), verdict.kind().id(), verdict.point().orElse(""), verdict.outcome(),
                    verdict.reason()));
        }
        return Input.found(rows);
    }
}
