package dev.starling.gpu.cuda;

import java.util.List;

/** The structs the host and the kernels share, in the order the generated header declares them. */
public final class KernelStructs {
    /**
     * A slot of the hash tables kernels probe (DimensionHashTable's layout, probe.cuh): a key and
     * its row, a negative row marking an empty slot; read in one 16-byte load.
     */
    public static final KernelStruct HASH_SLOT = new KernelStruct("HashSlot", 16,
            List.of(KernelStruct.int64("key"), KernelStruct.int64("row")));
    /** A partitioned join's (key, row) tuple (partitioned_join.cu). */
    public static final KernelStruct TUPLE = new KernelStruct("Tuple", 16,
            List.of(KernelStruct.int64("key"), KernelStruct.int64("row")));
    /**
     * A block's share of the partitioned join's second pass: {@code count} tuples at {@code tuples},
     * the {@code index}-th slice of group {@code group} (PartitionSchedule writes them).
     */
    public static final KernelStruct SLICE = new KernelStruct("Slice", 8, List.of(
            KernelStruct.pointer("tuples", "const Tuple*"), KernelStruct.uint32("count"), KernelStruct.uint32("group"),
            KernelStruct.uint32("index"), KernelStruct.uint32("pad")));
    /** One side of one unit of the partitioned join's work: its slices are [first, first + slices) of its batch's. */
    public static final KernelStruct GROUP = new KernelStruct("Group", 4,
            List.of(KernelStruct.uint32("first"), KernelStruct.uint32("slices")));

    /**
     * A conjunct of a HAVING condition applied to the groups as they are compacted (GroupFilter,
     * group_filter.cuh): a group's count or aggregate state compared with {@code constant}; a value
     * of magnitude past {@code passBeyond} passes.
     */
    public static final KernelStruct GROUP_TERM = new KernelStruct("GroupTerm", 8, List.of(
            KernelStruct.int64("constant"), KernelStruct.int64("passBeyond"), KernelStruct.int32("kind"), KernelStruct.int32("comparison"),
            KernelStruct.int32("countSlot"), KernelStruct.int32("valueSlot")));

    /**
     * A device column the persistent append kernel writes into (append.cu): {@code width} bytes of
     * values a row, and one byte of NULL flags a row at {@code nulls} unless it is 0.
     */
    public static final KernelStruct APPEND_TARGET = new KernelStruct("AppendTarget", 8, List.of(
            KernelStruct.pointer("values", "unsigned char*"), KernelStruct.pointer("nulls", "unsigned char*"),
            KernelStruct.int64("width")));

    static final List<KernelStruct> ALL = List.of(HASH_SLOT, TUPLE, SLICE, GROUP, GROUP_TERM, APPEND_TARGET);
    /** The header the kernels include for them. */
    static final String HEADER = "structs.cuh";

    private KernelStructs() { }

    /** The generated header's text. */
    public static String header() {
        StringBuilder h = new StringBuilder("// Generated from dev.starling.gpu.cuda.KernelStructs, the one definition of the structs\n"
                + "// the host writes and the kernels read.\n#pragma once\n\n");
        for (KernelStruct s : ALL) {
            h.append(s.definition()).append('\n');
        }
        return h.toString();
    }
}
