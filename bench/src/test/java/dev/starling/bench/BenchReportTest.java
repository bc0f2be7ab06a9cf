package dev.starling.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A benchmark's JSON holds every query's medians by engine (null where one was not timed); its chart is a PNG. */
class BenchReportTest {
    @TempDir
    Path dir;

    @Test
    void writesTheMediansAsJsonAndAChart() throws Exception {
        Map<String, Object> setup = new LinkedHashMap<>();
        setup.put("workload", "SSB");
        setup.put("scale_factor", 0.01);
        BenchReport report = new BenchReport("SSB SF 0.01", setup, List.of("gpu", "cpu", "duckdb"));
        report.add("Q1.1", new double[] {0.5, 12.25, 4.0}, 1L, new GpuAccount(0.25, 0.125));
        report.add("Q2.1", new double[] {1.5, 30.0, Double.NaN}, null, null);
        report.writeJson(dir.resolve("r.json"));
        report.writeChart(dir.resolve("r.png"));

        JsonNode json = new ObjectMapper().readTree(dir.resolve("r.json").toFile());
        assertEquals("SSB", json.get("workload").asText());
        assertEquals(List.of("gpu", "cpu", "duckdb"), Arrays.asList(new ObjectMapper().treeToValue(json.get("engines"), String[].class)));
        JsonNode q11 = json.get("queries").get(0);
        assertEquals("Q1.1", q11.get("query").asText());
        assertEquals(12.25, q11.get("median_ms").get("cpu").asDouble());
        assertEquals(1, q11.get("rows").asLong());
        assertEquals(0.125, q11.get("gpu_floor_ms").asDouble());
        assertTrue(json.get("queries").get(1).get("gpu_floor_ms") == null, "no GPU account: no floor");
        assertTrue(json.get("queries").get(1).get("median_ms").get("duckdb").isNull(), "not timed: null");

        byte[] png = Files.readAllBytes(dir.resolve("r.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    }
}
