package dev.servebench.verdict;

import dev.servebench.results.RunVerdictsJson.Outcome;
import dev.servebench.spec.Comparison;
import java.util.Optional;

/**
 * The reporting that serving and kernel expectations share, so both kinds fail, record and print alike: the
 * JUnit failure, the verdicts.json outcome, the message's first lines and the relative summary. Pure.
 */
final class VerdictText {

    private VerdictText() {
    }

    /**
     * Empty when the test passes; otherwise the message it fails (or, inconclusive, is aborted) with. Not judged
     * fails too: a skipped test would be as easy to overlook as a passed one.
     */
    static Optional<String> failure(Verdict verdict, String message) {
        return switch (verdict.outcome()) {
            case Verdict.Pass pass -> Optional.empty();
            case Verdict.Fail fail -> Optional.of(message);
            case Verdict.Inconclusive inconclusive -> Optional.of(message);
            case Verdict.NotJudged notJudged -> Optional.of("not judged: " + notJudged.reason() + "\n" + message);
        };
    }

    static Outcome outcome(Verdict verdict) {
        return switch (verdict.outcome()) {
            case Verdict.Pass pass -> Outcome.PASS;
            case Verdict.Fail fail -> Outcome.FAIL;
            case Verdict.Inconclusive inconclusive -> Outcome.INCONCLUSIVE;
            case Verdict.NotJudged notJudged -> Outcome.NOT_JUDGED;
        };
    }

    /** The message's first two lines: outcome and name, then the verdict's explanation. */
    static StringBuilder heading(Verdict verdict, String displayName) {
        StringBuilder text = new StringBuilder();
        text.append(switch (verdict.outcome()) {
            case Verdict.Pass pass -> "holds: ";
            case Verdict.Fail fail -> "FAILED: ";
            case Verdict.Inconclusive inconclusive -> "INCONCLUSIVE: ";
            case Verdict.NotJudged notJudged -> "NOT JUDGED: ";
        }).append(displayName).append('\n');
        text.append("  ").append(verdict.explanation()).append('\n');
        return text;
    }

    /**
     * A judged relative expectation: measured = ratio × reference, against factor × reference = the limit.
     *
     * @param afterRatio follows the ratio, e.g. a kernel line's " (95 % interval 2.9–3.1 ×)"; empty for none
     */
    static String relativeSummary(Verdict verdict, Comparison comparison, double factor, String afterRatio) {
        String unit = " " + verdict.unit().symbol();
        double measured = verdict.measured().getAsDouble();
        double reference = verdict.readings().get(1).value().getAsDouble();
        return Numbers.measured(measured) + unit + " = " + Numbers.measured(measured / reference) + " × "
                + Numbers.measured(reference) + unit + afterRatio + ", expected " + comparison.symbol() + " "
                + Numbers.measured(factor) + " × " + Numbers.measured(reference) + " = "
                + Numbers.measured(verdict.limit().getAsDouble()) + unit;
    }
}
