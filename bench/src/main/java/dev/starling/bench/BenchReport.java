package dev.starling.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * A benchmark run as files: JSON (what ran where, per query each engine's median, the rows and
 * the GPU's kernel time and floor) and a PNG chart of the medians, engines side by side per query on a logarithmic axis.
 */
final class BenchReport {
    /** One query's medians by engine (NaN: not timed), its row count, and the GPU's account of it (null: none). */
    record Query(String name, Map<String, Double> millis, Long rows, GpuAccount gpu) { }

    private final String title;
    private final Map<String, Object> setup;
    private final List<String> engines;
    private final List<Query> queries = new ArrayList<>();

    /** A report titled {@code title} of a run set up as {@code setup} says, timing {@code engines}. */
    BenchReport(String title, Map<String, Object> setup, List<String> engines) {
        this.title = title;
        this.setup = setup;
        this.engines = List.copyOf(engines);
    }

    /** Adds a query's medians, in the order of the engines, and the GPU's account of it where it has one. */
    void add(String name, double[] millis, Long rows, GpuAccount gpu) {
        Map<String, Double> byEngine = new LinkedHashMap<>();
        for (int e = 0; e < engines.size(); e++) {
            byEngine.put(engines.get(e), millis[e]);
        }
        queries.add(new Query(name, byEngine, rows, gpu));
    }

    /** Writes the JSON: the setup, then per query each engine's median in ms (null: not timed). */
    void writeJson(Path file) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("title", title);
        json.putAll(setup);
        json.put("engines", engines);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Query q : queries) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("query", q.name());
            Map<String, Double> ms = new LinkedHashMap<>();
            q.millis().forEach((engine, t) -> ms.put(engine, Double.isNaN(t) ? null : t));
            row.put("median_ms", ms);
            row.put("rows", q.rows());
            if (q.gpu() != null) {
                row.put("gpu_kernel_ms", q.gpu().kernelMillis());
                row.put("gpu_floor_ms", q.gpu().floorMillis());
            }
            rows.add(row);
        }
        json.put("queries", rows);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /** Writes the chart: per query a bar per timed engine, milliseconds on a logarithmic axis. */
    void writeChart(Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(800, 60 * queries.size() * engines.size() / 2))
                .height(500).title(title).xAxisTitle("query").yAxisTitle("median ms (log)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        // a logarithmic axis needs a floor above zero to draw bars from
        double least = queries.stream().flatMap(q -> q.millis().values().stream()).filter(t -> !t.isNaN())
                .mapToDouble(Double::doubleValue).min().orElse(1);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(least))));
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setOverlapped(false);
        List<String> names = queries.stream().map(Query::name).toList();
        for (String engine : engines) {
            List<Double> ms = queries.stream().map(q -> q.millis().get(engine)).toList();
            if (ms.stream().allMatch(t -> t.isNaN())) {
                continue;
            }
            // a bar the axis can draw where the engine was not timed
            chart.addSeries(engine, names, ms.stream().map(t -> t.isNaN() ? null : t).toList());
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
