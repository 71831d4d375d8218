# slabsim: lockbench throughput vs CPUs, three spinlock kinds (nehalem-ex).
# regenerate: configs/lockbench-curve.sh ./slabsim nehalem-ex results; or edit and run: cd results && gnuplot lockbench-nehalem-ex.gp
set terminal pngcairo size 900,560 font ',10'
set output 'lockbench-nehalem-ex.png'
set title "lockbench on nehalem-ex: one spinlock, think=2000 hold=200 duration_us=20000" noenhanced
set xlabel 'CPUs taking the lock (packed: a socket is filled before the next)'
set ylabel 'acquisitions per second (millions)'
set key top right
set grid
set xrange [0:64]
set yrange [0:*]
plot 'lockbench-nehalem-ex.dat' using 1:($2/1e6) with linespoints title 'byte (x86 to 2.6.24)', \
     '' using 1:($5/1e6) with linespoints title 'ticket (2.6.25-4.1)', \
     '' using 1:($8/1e6) with linespoints title 'queued (4.2+, MCS)'
