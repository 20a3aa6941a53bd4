{
	n = $NF; a = ($0 ~ /vtComputeA/); b = ($0 ~ /vtComputeB/)
	if (!a && !b) next
	named = ($0 ~ /^\[vt-a-[0-9]+ #[0-9]+ virtual/); unnamed = ($0 ~ /^\[#[0-9]+ virtual/)
	chain = a ? ($0 ~ /vtEntryA[^;]*;[^;]*vtMiddleA[^;]*;[^;]*vtComputeA/) : ($0 ~ /vtEntryB[^;]*;[^;]*vtMiddleB[^;]*;[^;]*vtComputeB/)
	full = ($0 ~ /VirtualThread\.run_/)
	tot += n; if ((a && named) || (b && unnamed)) right += n; if (chain) whole += n; if (full) f += n
	if (!named && !unnamed) carrier += n
}
END { printf "samples %d right-vthread %.1f%% (carrier only %.1f%%) chain %.1f%% down-to-VirtualThread.run %.1f%%\n", tot, 100*right/tot, 100*carrier/tot, 100*whole/tot, 100*f/tot }
