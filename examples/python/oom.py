import legato.numpy as np

# allocation site, not instantiated yet
a = np.ones((1024 * 1024 - 2,))

# allocation site, not instantiated yet
b = np.zeros((1024 * 1024,))

# use only a slice of b; causes b#1
b[1:-1] = a

# use full b; causes instance b#2
c = b + 2

# will fail
d = c + 3
