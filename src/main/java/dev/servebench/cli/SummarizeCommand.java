package dev.servebench.cli;

import dev.servebench.load.LoadPointResult;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.metric.TokenSource;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import dev.servebench.results.FormatJson;
import dev.servebench.results.SummarySection;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code servebench summarize RECORDS.jsonl}: recomputes every metric from a records file alone (the
 * benchmark duration is the last request's end, as in a live run) and prints them as JSON.
 */
@Command(name = "summarize", mixinStandardHelpOptions = true,
        description = "Recompute every metric from a records JSONL file and print them as JSON.")
public final class SummarizeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RECORDS", description = "A *.records.jsonl file written by servebench run.")
    Path records;

    @Option(names = "--token-source", defaultValue = "usage", description = "usage (default) or chunks.")
    String tokenSource;

    @Option(names = "--input-token-source", defaultValue = "dataset",
            description = "dataset (default, SGLang's prompt_len) or usage (the server's usage.prompt_tokens).")
    String inputTokenSource;

    @Override
    public Integer call() throws Exception {
        TokenSource source = TokenSourceOption.parse(tokenSource);
        List<RequestRecord> list = RecordJsonl.read(records);
        ServingSummary summary;
        try (RecordStore store = RecordStore.of(list)) {
            // A file whose run had a client tokenizer carries the retokenized counts; one without has none.
            boolean retokenized = list.stream().anyMatch(r -> r.retokenizedOutputLen().isPresent());
            summary = SummaryCalculator.compute(store, LoadPointResult.durationOf(list), MetricOptions.of(source)
                    .withInputTokenSource(TokenSourceOption.parseInput(inputTokenSource))
                    .withRetokenizedOutput(retokenized));
        }
        spec.commandLine().getOut().println(FormatJson.text(SummarySection.metrics(summary)));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
