package dev.starling.exec.pipeline;

import java.util.ArrayList;
import java.util.List;

/** A source and the streaming operators its batches go through (a UNION ALL stream has several parts). */
public record Part(Source source, List<OperatorFactory> chain) {
    public Part {
        chain = List.copyOf(chain);
    }

    public Part then(OperatorFactory next) {
        List<OperatorFactory> c = new ArrayList<>(chain);
        c.add(next);
        return new Part(source, c);
    }
}
