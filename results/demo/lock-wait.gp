# slabsim: CPU time spinning on locks (%). Edit and re-run: gnuplot lock-wait.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'lock-wait.png'
set termoption noenhanced
set datafile missing '?'
set grid
set key off
set linetype 1 lc rgb '#1f77b4' lw 1.5
set linetype 2 lc rgb '#ff7f0e' lw 1.5
set linetype 3 lc rgb '#2ca02c' lw 1.5
set linetype 4 lc rgb '#d62728' lw 1.5
set linetype 5 lc rgb '#9467bd' lw 1.5
set linetype 6 lc rgb '#8c564b' lw 1.5
set linetype 7 lc rgb '#e377c2' lw 1.5
set linetype 8 lc rgb '#17becf' lw 1.5
set linetype 9 lc rgb '#bcbd22' lw 1.5
set linetype 10 lc rgb '#7f7f7f' lw 1.5
set linetype cycle 10
set title "tigerton-min-objects: tigerton, slub, hackbench 100 process\nkernel=2.6.25-rc5 slub_max_order=3 loops=500 sample=auto (2 runs a point: the mean, and each run as a dot)"
set xlabel "slub_min_objects"
set ylabel "CPU time spinning on locks (%)"
set yrange [0:*]
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0
set logscale x 2
set xtics ("4" 4, "6" 6, "8" 8, "10" 10, "12" 12, "16" 16, "20" 20, "24" 24, "32" 32, "40" 40, "48" 48, "64" 64)
plot 'lock-wait.dat' index 0 using 1:2 with linespoints lc 1 pt 7 ps 0.6 title "", \
     '' index 1 using 1:2 with points pt 6 ps 0.5 lc 1 notitle
