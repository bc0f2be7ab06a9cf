package dev.starling.storage.gen;

import dev.starling.storage.Catalog;

/** TPC-H and SSB at SF 0.01 with unqualified names, generated once per test run and shared. */
final class GeneratedData {
    static final double SCALE_FACTOR = 0.01;

    private static Catalog tpch;
    private static Catalog ssb;

    private GeneratedData() { }

    static synchronized Catalog tpch() {
        if (tpch == null) {
            tpch = Catalog.inMemory();
            TpchGenerator.generate(tpch, SCALE_FACTOR, "");
        }
        return tpch;
    }

    static synchronized Catalog ssb() {
        if (ssb == null) {
            ssb = Catalog.inMemory();
            SsbGenerator.generate(ssb, SCALE_FACTOR, "");
        }
        return ssb;
    }
}
