"""Saliency calculators: gradient, integrated gradients and occlusion, with SmoothGrad and BayesGrad sampling."""
from kusari.chem.saliency.calculator import base_calculator, calculator_utils, gradient_calculator  # NOQA
from kusari.chem.saliency.calculator import integrated_gradients_calculator, occlusion_calculator  # NOQA
from kusari.chem.link_hooks import variable_monitor_link_hook  # NOQA

from kusari.chem.saliency.calculator.base_calculator import BaseCalculator  # NOQA
from kusari.chem.saliency.calculator.calculator_utils import GaussianNoiseSampler  # NOQA
from kusari.chem.saliency.calculator.gradient_calculator import GradientCalculator  # NOQA
from kusari.chem.saliency.calculator.integrated_gradients_calculator import IntegratedGradientsCalculator  # NOQA
from kusari.chem.saliency.calculator.occlusion_calculator import OcclusionCalculator  # NOQA
from kusari.chem.link_hooks.variable_monitor_link_hook import VariableMonitorLinkHook  # NOQA
