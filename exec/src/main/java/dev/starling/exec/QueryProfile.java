package dev.starling.exec;

import java.util.Map;
import java.util.TreeMap;

/**
 * What each pipeline of a query's graph did as it ran: its wall time (the build sides it waits on,
 * which run before it, not counted), the rows it handed its sink (its last run's, for a pipeline
 * handed back and run again), and the accelerator's account of its run (kernel time against its
 * floor, copies). EXPLAIN ANALYZE prints it beside the plan.
 */
public final class QueryProfile {
    /** Pipeline totals: {@code device}, the accelerator's account (null: none). */
    public record Pipeline(long nanos, long rows, String device) {
        public double millis() {
            return nanos / 1e6;
        }
    }

    private final Map<Integer, Pipeline> pipelines = new TreeMap<>();
    /** The accelerator's account of the run it finished last, until a pipeline takes it. */
    private String deviceRun;

    /**
     * Records a run of pipeline {@code id} that took {@code nanos} and handed {@code rows} rows on;
     * ids below 0 are not the graph's.
     */
    public synchronized void measured(int id, long nanos, long rows) {
        add(id, new Pipeline(nanos, rows, null));
    }

    /**
     * As {@link #measured}, for a run the accelerator was handed, with its account of it if one is
     * waiting ({@link #deviceRun}).
     */
    public synchronized void measuredOnDevice(int id, long nanos, long rows) {
        String device = deviceRun;
        deviceRun = null;
        add(id, new Pipeline(nanos, rows, device));
    }

    private void add(int id, Pipeline run) {
        if (id >= 0) {
            pipelines.merge(id, run, (before, now) -> new Pipeline(before.nanos + now.nanos, now.rows,
                    now.device != null ? now.device : before.device));
        }
    }

    /** The accelerator's account of the run it just finished, for the pipeline measured on the device next to take. */
    public synchronized void deviceRun(String account) {
        deviceRun = account;
    }

    /** Each measured pipeline's totals, by pipeline number. */
    public synchronized Map<Integer, Pipeline> pipelines() {
        return Map.copyOf(pipelines);
    }
}
