package dev.starling.gpu.pipeline;

import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;

/**
 * Orders rows that reach a sort on the host (no GPU pipeline sorted them: an aggregation's groups,
 * a join's rows) on the device: each key column's 64-bit words copied there (a double's bits, a
 * string's codes with its dictionary's ranks, NULL flags where it has any), sorted by
 * {@link DeviceRowSort}, and only the order of the rows the sort keeps copied back. The rows stay on
 * the host, which gathers them in that order.
 */
public final class HostRowsSort {
    private HostRowsSort() { }

    /** The indexes of the rows of {@code rows} that {@code node} keeps, in its order (its offset and limit applied). */
    public static int[] order(GpuDevice device, SortNode node, Batch rows) {
        int n = rows.rows();
        if (n == 0) {
            return new int[0];
        }
        try (DeviceArrays scratch = new DeviceArrays(device.memory())) {
            List<RowSort.Key> keys = new ArrayList<>();
            List<DeviceRowSort.Column> columns = new ArrayList<>();
            for (SortNode.SortKey k : node.keys()) {
                Vector v = rows.column(k.column());
                RowSort.Word word = v.isDouble() ? RowSort.Word.FLOATING
                        : v.dict() != null ? RowSort.Word.RANKED : RowSort.Word.INTEGRAL;
                RowSort.Key key = new RowSort.Key(k.column(), k.descending(), k.nullsFirst(), v.nulls() != null, word);
                DeviceBuffer values = scratch.upload(v.isDouble() ? bits(v.doubles(), n) : v.longs(), "sort key values");
                DeviceBuffer nulls = v.nulls() == null ? null : scratch.upload(DeviceArrays.flags(v.nulls(), n), "sort key NULL flags");
                keys.add(key);
                columns.add(new DeviceRowSort.Column(key, values, nulls, word == RowSort.Word.RANKED ? v.dict().ranks() : null));
            }
            RowSort sort = new RowSort(keys, node.offset(), node.limit());
            DeviceBuffer order = DeviceRowSort.sort(device, scratch, columns, n);
            long[] kept = new long[(int) sort.count(n)];
            order.download(Pointer.to(kept), 8 * sort.first(n), 8L * kept.length);
            int[] out = new int[kept.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = (int) kept[i];
            }
            return out;
        }
    }

    private static long[] bits(double[] values, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = Double.doubleToRawLongBits(values[i]);
        }
        return out;
    }
}
