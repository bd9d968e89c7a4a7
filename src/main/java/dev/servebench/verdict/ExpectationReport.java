package dev.servebench.verdict;

import dev.servebench.results.RunVerdictsJson;
import dev.servebench.results.RunVerdictsJson.Kind;
import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Expectation;
import dev.servebench.spec.Measurements;
import dev.servebench.spec.RelativeExpectation;
import dev.servebench.spec.BoundExpectation;
import java.util.Objects;
import java.util.Optional;

/**
 * One judged expectation and everything that reports it: the JUnit outcome ({@link #failure()}), the
 * verdicts.json entry ({@link #entry()}) and the console line (the entry's summary) all come from the one
 * {@link Verdict}, so they cannot disagree. Pure.
 *
 * @param message the full text: verdict line, metric definitions, sibling throughputs ({@link ExpectationMessage})
 */
public record ExpectationReport(Expectation expectation, Verdict verdict, String message) {

    public ExpectationReport {
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(message, "message");
    }

    public static ExpectationReport judge(Expectation expectation, Measurements measurements) {
        Verdict verdict = Judge.verdict(expectation, measurements);
        return new ExpectationReport(expectation, verdict, ExpectationMessage.describe(expectation, verdict, measurements));
    }

    /**
     * Empty when the test passes; otherwise the message it fails with. Not judged fails too: a skipped test
     * would be as easy to overlook as a passed one.
     */
    public Optional<String> failure() {
        return VerdictText.failure(verdict, message);
    }

    /** The verdicts.json line: outcome, the JUnit message as the reason, the verdict's numbers as the summary. */
    public RunVerdictsJson.Entry entry() {
        Optional<String> point = switch (expectation) {
            case AbsoluteExpectation absolute -> Optional.of(absolute.point().toString());
            case RelativeExpectation relative -> Optional.empty();
            case BoundExpectation bound -> Optional.of(bound.point().toString());
        };
        return new RunVerdictsJson.Entry(expectation.displayName(), Kind.EXPECTATION, point,
                VerdictText.outcome(verdict), failure().orElse(message), summary());
    }

    /**
     * Measured vs limit with units, leaving out what the expectation's name already says: the console prints
     * both on one line. Not judged: the explanation, which starts with why.
     */
    private String summary() {
        if (verdict.outcome() instanceof Verdict.NotJudged) {
            return verdict.explanation();
        }
        String unit = " " + verdict.unit().symbol();
        double measured = verdict.measured().getAsDouble();
        return switch (expectation) {
            case AbsoluteExpectation absolute -> Numbers.measured(measured) + unit + ", expected " + absolute.limitText();
            case RelativeExpectation relative ->
                    VerdictText.relativeSummary(verdict, relative.comparison(), relative.factor(), "");
            case BoundExpectation bound -> Numbers.measured(measured) + unit + ", expected " + bound.comparison()
                    .symbol() + " " + Numbers.measured(bound.factor()) + " × " + bound.bound().id() + " = "
                    + Numbers.measured(verdict.limit().getAsDouble()) + unit;
        };
    }
}
