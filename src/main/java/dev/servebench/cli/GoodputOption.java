package dev.servebench.cli;

import dev.servebench.metric.GoodputSlo;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

/** Parses vLLM's {@code --goodput ttft:300 tpot:50 e2el:2000} (milliseconds). */
final class GoodputOption {
    private GoodputOption() {}

    static GoodputSlo parse(List<String> items) {
        OptionalDouble ttft = OptionalDouble.empty();
        OptionalDouble tpot = OptionalDouble.empty();
        OptionalDouble e2el = OptionalDouble.empty();
        Set<String> seen = new HashSet<>();
        for (String item : items) {
            String[] parts = item.split(":", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("'" + item + "' is not NAME:MILLISECONDS (e.g. ttft:300)");
            }
            String name = parts[0].trim();
            double ms;
            try {
                ms = Double.parseDouble(parts[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + item + "': '" + parts[1] + "' is not a number of milliseconds");
            }
            if (!(ms >= 0) || Double.isInfinite(ms)) {
                throw new IllegalArgumentException("'" + item + "': the SLO must be a finite number >= 0");
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException("'" + name + "' is given twice");
            }
            switch (name) {
                case "ttft" -> ttft = OptionalDouble.of(ms);
                case "tpot" -> tpot = OptionalDouble.of(ms);
                case "e2el" -> e2el = OptionalDouble.of(ms);
                default -> throw new IllegalArgumentException("'" + name + "' is not an SLO name; expected ttft, tpot or e2el");
            }
        }
        return new GoodputSlo(ttft, tpot, e2el);
    }
}
