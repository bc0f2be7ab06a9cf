package dev.starling.gpu.pipeline;

import dev.starling.gpu.cuda.DeviceBuffer;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;

/**
 * The status bits a star pipeline kernel sets when it meets a case it cannot finish exactly; any
 * bit hands the pipeline to the CPU backend, which gives the exact answer or the SQL error. The
 * generated source defines them for the kernels' headers ({@code row.cuh}) from here.
 */
enum KernelStatus {
    OVERFLOW(1, "a 64-bit overflow"),
    DIVIDE_BY_ZERO(2, "a division by zero"),
    BAD_CODE(4, "a key outside its dense range"),
    GROUP_TABLE_FULL(8, "more groups than its group hash table holds"),
    DISTINCT_SET_FULL(16, "more distinct values than a DISTINCT aggregate's set holds");

    final int bit;
    private final String description;

    KernelStatus(int bit, String description) {
        this.bit = bit;
        this.description = description;
    }

    /** The C macro the kernels' headers test. */
    String macro() {
        return "STATUS_" + name();
    }

    /** What a launched kernel met, from its status word in device memory ("" when nothing). */
    static String read(DeviceBuffer status) {
        return describe(word(status));
    }

    /** A launched kernel's status word, from device memory. */
    static int word(DeviceBuffer status) {
        int[] value = new int[1];
        status.download(Pointer.to(value), 4);
        return value[0];
    }

    /** What the kernel met, from its status word ("" when nothing). */
    static String describe(int status) {
        List<String> what = new ArrayList<>();
        for (KernelStatus s : values()) {
            if ((status & s.bit) != 0) {
                what.add(s.description);
            }
        }
        return what.isEmpty() ? "" : "the kernel met " + String.join(" and ", what);
    }
}
