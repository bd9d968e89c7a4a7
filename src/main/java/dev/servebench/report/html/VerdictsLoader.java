package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verdicts.json}: {@code {"spec": ..., "verdicts": [{"name", "kind", "point", "outcome", "reason"}]}},
 * outcome being pass, fail, not_judged (a value the check reads was absent, NaN or infinite) or invalid (the
 * point was unmeasured or invalid); entries may also carry a one-line "summary", which the table does not
 * need. Optional: runs made before the suite wrote it have none.
 */
final class VerdictsLoader {

    private VerdictsLoader() {
    }

    static Input<List<VerdictRow>> load(Path file, String spec) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Input.missing("no verdicts.json in " + file.getParent()
                    + " (the perf suite writes it after judging the run; older runs have none)");
        }
        JsonNode root = ReportLoader.readJson(file, "a perf run's verdicts.json");
        String named = root.path("spec").asText(spec);
        if (!named.equals(spec)) {
            throw new IllegalArgumentException(file + ": verdicts of spec \"" + named + "\" next to measurements of \""
                    + spec + "\"; expected both from one run");
        }
        JsonNode verdicts = root.path("verdicts");
        if (!verdicts.isArray()) {
            throw new IllegalArgumentException(file + ": \"verdicts\" is not an array; expected"
                    + " {\"spec\": ..., \"verdicts\": [{\"name\", \"kind\", \"point\", \"outcome\", \"reason\"}]}");
        }
        List<VerdictRow> rows = new ArrayList<>();
        for (int i = 0; i < verdicts.size(); i++) {
            JsonNode verdict = verdicts.get(i);
            try {
                rows.add(new VerdictRow(verdict.path("name").asText(""), verdict.path("kind").asText(""),
                        verdict.path("point").isNull() ? "" : verdict.path("point").asText(""),
                        RunVerdictsJson.Outcome.parse(verdict.path("outcome").asText("")),
                        verdict.path("reason").asText("")));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": verdicts[" + i + "]: " + e.getMessage());
            }
        }
        return Input.found(rows);
    }
}
