# slabsim: cycles per kmalloc (test 2: per kmalloc+kfree pair). Edit and re-run: gnuplot metric.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'metric.png'
set termoption noenhanced
set datafile missing '?'
set grid
set key outside right top
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
set title "slab-test: core2-ep, slab_test\nkernel=2.6.26 count=10000 (2 runs a point: the mean, and each run as a dot)"
set xlabel "object size (bytes)"
set ylabel "cycles per kmalloc (test 2: per kmalloc+kfree pair)"
set logscale y
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0
set logscale x 2
set xtics ("8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096)
plot 'metric.dat' index 0 using 1:2 with linespoints lc 1 dt 1 pt 1 ps 0.7 title "slab, 1 alloc then free", \
     '' index 15 using 1:2 with points pt 6 ps 0.5 lc 1 notitle, \
     'metric.dat' index 1 using 1:2 with linespoints lc 1 dt 2 pt 2 ps 0.7 title "slab, 2 alloc/free", \
     '' index 16 using 1:2 with points pt 6 ps 0.5 lc 1 notitle, \
     'metric.dat' index 2 using 1:2 with linespoints lc 1 dt 3 pt 3 ps 0.7 title "slab, 3 concurrent", \
     '' index 17 using 1:2 with points pt 6 ps 0.5 lc 1 notitle, \
     'metric.dat' index 3 using 1:2 with linespoints lc 1 dt 4 pt 4 ps 0.7 title "slab, 4 remote free", \
     '' index 18 using 1:2 with points pt 6 ps 0.5 lc 1 notitle, \
     'metric.dat' index 4 using 1:2 with linespoints lc 1 dt 5 pt 5 ps 0.7 title "slab, 5 1 alloc N free", \
     '' index 19 using 1:2 with points pt 6 ps 0.5 lc 1 notitle, \
     'metric.dat' index 5 using 1:2 with linespoints lc 2 dt 1 pt 1 ps 0.7 title "slub, 1 alloc then free", \
     '' index 20 using 1:2 with points pt 6 ps 0.5 lc 2 notitle, \
     'metric.dat' index 6 using 1:2 with linespoints lc 2 dt 2 pt 2 ps 0.7 title "slub, 2 alloc/free", \
     '' index 21 using 1:2 with points pt 6 ps 0.5 lc 2 notitle, \
     'metric.dat' index 7 using 1:2 with linespoints lc 2 dt 3 pt 3 ps 0.7 title "slub, 3 concurrent", \
     '' index 22 using 1:2 with points pt 6 ps 0.5 lc 2 notitle, \
     'metric.dat' index 8 using 1:2 with linespoints lc 2 dt 4 pt 4 ps 0.7 title "slub, 4 remote free", \
     '' index 23 using 1:2 with points pt 6 ps 0.5 lc 2 notitle, \
     'metric.dat' index 9 using 1:2 with linespoints lc 2 dt 5 pt 5 ps 0.7 title "slub, 5 1 alloc N free", \
     '' index 24 using 1:2 with points pt 6 ps 0.5 lc 2 notitle, \
     'metric.dat' index 10 using 1:2 with linespoints lc 3 dt 1 pt 1 ps 0.7 title "slqb, 1 alloc then free", \
     '' index 25 using 1:2 with points pt 6 ps 0.5 lc 3 notitle, \
     'metric.dat' index 11 using 1:2 with linespoints lc 3 dt 2 pt 2 ps 0.7 title "slqb, 2 alloc/free", \
     '' index 26 using 1:2 with points pt 6 ps 0.5 lc 3 notitle, \
     'metric.dat' index 12 using 1:2 with linespoints lc 3 dt 3 pt 3 ps 0.7 title "slqb, 3 concurrent", \
     '' index 27 using 1:2 with points pt 6 ps 0.5 lc 3 notitle, \
     'metric.dat' index 13 using 1:2 with linespoints lc 3 dt 4 pt 4 ps 0.7 title "slqb, 4 remote free", \
     '' index 28 using 1:2 with points pt 6 ps 0.5 lc 3 notitle, \
     'metric.dat' index 14 using 1:2 with linespoints lc 3 dt 5 pt 5 ps 0.7 title "slqb, 5 1 alloc N free", \
     '' index 29 using 1:2 with points pt 6 ps 0.5 lc 3 notitle
